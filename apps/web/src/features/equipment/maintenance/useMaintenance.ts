import { useCallback, useEffect, useRef, useState } from 'react';
import { PushMsgId, deviceOpPush, type DeviceOp, type MaintenanceLive } from '@nest/contracts';
import { onPush } from '../../../shared/push';
import { call } from '../../../shared/request';

/** While an operation runs, the list is read again this often (push 390 reaches only the starter and watchers). */
export const RUNNING_POLL_MS = 3000;
export const HISTORY_PAGE_SIZE = 10;

/**
 * Puts a pushed operation into the list: replaces the row of the same id unless the list has a newer one
 * (pushes may arrive twice or after a reload), or adds it on top when it is new and the first page shows.
 */
export function mergeOp(list: readonly DeviceOp[], op: DeviceOp, firstPage: boolean): DeviceOp[] {
  const i = list.findIndex((o) => o.id === op.id);
  if (i >= 0) {
    const old = list[i]!;
    // A finished row never becomes running again; otherwise the later change wins.
    if (old.state !== 'running' && op.state === 'running') return [...list];
    if (old.state === 'running' && op.state === 'running' && op.progress < old.progress) return [...list];
    return list.map((o, j) => (j === i ? op : o));
  }
  return firstPage ? [op, ...list] : [...list];
}

/** The newest operation of a kind among those shown. */
export const latestOf = (list: readonly DeviceOp[], kind: DeviceOp['kind']): DeviceOp | null =>
  list.filter((o) => o.kind === kind).sort((a, b) => b.create_time - a.create_time)[0] ?? null;

/**
 * The download link of an uploaded log: the signed link /device/ops answers. A push (390) carries only the
 * bare path; the list is read again when an operation ends, which brings the signed link.
 */
export const logHref = (op: DeviceOp): string | null => (op.file && op.file.url.includes('?') ? op.file.url : null);

export interface MaintenanceData {
  list: DeviceOp[];
  total: number;
  live: MaintenanceLive | null;
  page: number;
  loading: boolean;
  failed: boolean;
  setPage(page: number): void;
  reload(): void;
  /** An operation the drawer just started (the call's answer), shown at once. */
  add(op: DeviceOp): void;
}

/** The operations and live facts of one device: /device/ops, push 390, and a poll while something runs. */
export function useMaintenance(sn: string | null, kind?: string): MaintenanceData {
  const [list, setList] = useState<DeviceOp[]>([]);
  const [total, setTotal] = useState(0);
  const [live, setLive] = useState<MaintenanceLive | null>(null);
  const [page, setPage] = useState(0);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const seq = useRef(0);
  const pageRef = useRef(page);
  pageRef.current = page;

  const load = useCallback(
    async (quiet: boolean) => {
      if (!sn) return;
      const mine = ++seq.current;
      if (!quiet) setLoading(true);
      try {
        const data = await call(
          'deviceOps',
          { sn_id: sn, page: pageRef.current, size: HISTORY_PAGE_SIZE, ...(kind ? { kind } : {}) },
          { quiet },
        );
        if (mine !== seq.current) return;
        setList(data.list);
        setTotal(data.total);
        setLive(data.live);
        setFailed(false);
      } catch {
        if (mine === seq.current && !quiet) setFailed(true);
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    },
    [sn, kind],
  );

  useEffect(() => {
    setList([]);
    setLive(null);
    setTotal(0);
    setFailed(false);
  }, [sn, kind]);

  useEffect(() => {
    void load(false);
  }, [load, page]);

  useEffect(() => {
    if (!sn) return undefined;
    return onPush(PushMsgId.DEVICE_OP, (data) => {
      const parsed = deviceOpPush.safeParse(data);
      if (!parsed.success || parsed.data.sn_id !== sn) return;
      const op = parsed.data.op;
      if (kind && op.kind !== kind) return;
      setList((l) => mergeOp(l, op, pageRef.current === 0).slice(0, HISTORY_PAGE_SIZE));
      // The end of an operation changes live facts (firmware, azimuth, beacon, RTK): read them again.
      if (op.state !== 'running') void load(true);
    });
  }, [sn, kind, load]);

  const running = list.some((o) => o.state === 'running');
  useEffect(() => {
    if (!sn || !running) return undefined;
    const timer = setInterval(() => void load(true), RUNNING_POLL_MS);
    return () => clearInterval(timer);
  }, [sn, running, load]);

  const add = useCallback((op: DeviceOp) => {
    setList((l) => mergeOp(l, op, pageRef.current === 0).slice(0, HISTORY_PAGE_SIZE));
    setTotal((n) => n + 1);
    if (op.state !== 'running') void load(true);
  }, [load]);

  return { list, total, live, page, loading, failed, setPage, reload: () => void load(false), add };
}
