import { useCallback, useState } from 'react';
import type { CallFields, CallName, Page } from '@nest/contracts';
import { useCall } from '../query';

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
 * One page of a list call (`{list, total}`) for an administration table, read through the query cache. A
 * change of `query` (compared by value) goes back to the first page; the rows of the previous page stay on
 * screen while the next one is read; `reload` (or `invalidateCall(name)` after a change) reads it again. A
 * failed read shows an empty table.
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
  const fields = { ...query, page: effectivePage, size: pageSize } as CallFields<N>;
  const result = useCall<N, Page<R> | undefined>(name, fields, { keepPrevious: true });
  const { refetch } = result;
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);
  const data = result.isError ? undefined : result.data;
  return {
    rows: data?.list ?? [],
    total: data?.total ?? 0,
    page: effectivePage,
    pageSize,
    loading: result.isFetching,
    setPage,
    reload,
  };
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
