import { formatMonthDayTime } from '@nest/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ResultItem } from '@nest/contracts';
import { getLang } from '../../shared/i18n';
import { call } from '../../shared/request';
import { resultListFields, type ResultFilter } from './query';

export interface ResultsState {
  list: ResultItem[];
  total: number;
  loading: boolean;
  failed: boolean;
  reload: () => void;
}

/** One page of results for a filter; a newer request supersedes an older one still on its way. */
export function useResults(filter: ResultFilter, size: number, extra: { located?: 1 } = {}, enabled = true): ResultsState {
  const [data, setData] = useState<{ list: ResultItem[]; total: number }>({ list: [], total: 0 });
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  const key = JSON.stringify(resultListFields(filter, size, extra));

  useEffect(() => {
    if (!enabled) return;
    const mine = ++seq.current;
    setLoading(true);
    call('resultList', JSON.parse(key))
      .then((p) => {
        if (mine !== seq.current) return;
        setData({ list: p?.list ?? [], total: p?.total ?? 0 });
        setFailed(false);
      })
      .catch(() => {
        if (mine === seq.current) setFailed(true);
      })
      .finally(() => {
        if (mine === seq.current) setLoading(false);
      });
  }, [key, tick, enabled]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...data, loading, failed, reload };
}

/**
 * Names of the company's newest sorties by sort_id (route name, else device), for the sortie chip and
 * column. sortiesList has no id filter; results are browsed from recent sorties, which this covers.
 */
export function useSortieNames(): Map<string, string> {
  const [names, setNames] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    let live = true;
    call('sortiesList', { page: 0, size: 200 }, { quiet: true })
      .then((p) => {
        if (!live) return;
        const lang = getLang();
        setNames(
          new Map(
            (p?.list ?? []).map((s) => [s.sort_id, `${s.mission_name || s.device_name} · ${formatMonthDayTime(s.start_time * 1000, lang)}`]),
          ),
        );
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return names;
}
