import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallFields, CallName, Page } from '@nest/contracts';
import { call } from '../request';

export interface PagedList<R> {
  rows: R[];
  total: number;
  /** 0-based, as the calls count pages. */
  page: number;
  pageSize: number;
  loading: boolean;
  setPage: (page: number) => void;
  reload: () => Promise<void>;
}

/**
 * One page of a list call (`{list, total}`) for an administration table. A change of `query` (compared by
 * value) goes back to the first page; `reload` re-reads the current page after a create, edit or delete.
 * An answer that arrives after a newer request started is dropped.
 */
export function usePagedList<N extends CallName, R>(
  name: N,
  query: Omit<CallFields<N>, 'page' | 'size'>,
  pageSize = 20,
): PagedList<R> {
  const key = JSON.stringify(query);
  // The page belongs to the query it was chosen for: a new query starts at page 0.
  const [chosen, setChosen] = useState({ key, page: 0 });
  const effectivePage = chosen.key === key ? chosen.page : 0;
  const setPage = useCallback((p: number) => setChosen({ key, page: p }), [key]);
  const [data, setData] = useState<Page<R>>({ list: [], total: 0 });
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const fields = { ...(JSON.parse(key) as object), page: effectivePage, size: pageSize } as unknown as CallFields<N>;
      const result = await call<N, Page<R>>(name, fields);
      if (mine === seq.current) setData({ list: result?.list ?? [], total: result?.total ?? 0 });
    } catch {
      if (mine === seq.current) setData({ list: [], total: 0 });
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [name, key, effectivePage, pageSize]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { rows: data.list, total: data.total, page: effectivePage, pageSize, loading, setPage, reload };
}

/** antd Table `pagination` for a PagedList (antd counts pages from 1). */
export function tablePagination<R>(list: PagedList<R>, showTotal?: (total: number) => string) {
  return {
    current: list.page + 1,
    pageSize: list.pageSize,
    total: list.total,
    showSizeChanger: false,
    size: 'small' as const,
    showTotal,
    onChange: (p: number) => list.setPage(p - 1),
  };
}
