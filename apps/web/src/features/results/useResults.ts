import { formatMonthDayTime } from '@nest/contracts';
import { useMemo } from 'react';
import type { ResultItem } from '@nest/contracts';
import { useCallPage } from '../../shared/admin';
import { getLang } from '../../shared/i18n';
import { useCall } from '../../shared/query';
import { resultListFields, type ResultFilter } from './query';

export interface ResultsState {
  list: ResultItem[];
  total: number;
  loading: boolean;
  failed: boolean;
  reload: () => void;
}

/** One page of results for a filter, read through the query cache (`enabled` false reads nothing). */
export function useResults(filter: ResultFilter, size: number, extra: { located?: 1 } = {}, enabled = true): ResultsState {
  const page = useCallPage('resultList', enabled ? resultListFields(filter, size, extra) : null);
  return { list: page.rows, total: page.total, loading: page.loading, failed: page.failed, reload: () => void page.reload() };
}

/**
 * Names of the company's newest sorties by sort_id (route name, else device), for the sortie chip and
 * column. sortiesList has no id filter; results are browsed from recent sorties, which this covers.
 */
export function useSortieNames(): Map<string, string> {
  const sorties = useCall('sortiesList', { page: 0, size: 200 }, { quiet: true }).data;
  return useMemo(() => {
    const lang = getLang();
    return new Map((sorties?.list ?? []).map((s) => [s.sort_id, `${s.mission_name || s.device_name} · ${formatMonthDayTime(s.start_time * 1000, lang)}`]));
  }, [sorties]);
}
