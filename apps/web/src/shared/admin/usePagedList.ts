import { useCallback, useState } from 'react';
import type { CallAnswer, CallFields, CallName, Page } from '@nest/contracts';
import { invalidateCall, useCall } from '../query';

/** The calls that answer one page of a list (`{list, total}`). */
export type PagedCall = { [N in CallName]: CallAnswer<N> extends Page<unknown> ? N : never }[CallName];
/** A row of a paged call's list. */
export type RowOf<N extends PagedCall> = CallAnswer<N> extends Page<infer R> ? R : never;

// One empty list for every unread page, so that `rows` keeps its identity across renders (effects depend on it).
const NO_ROWS: never[] = [];

export interface CallPage<R> {
  rows: R[];
  total: number;
  /** Reading (the first time or again); the previous rows stay on screen meanwhile. */
  loading: boolean;
  /** The last read failed (the request layer has shown why); the rows are then empty. */
  failed: boolean;
  /** Reads every cached page of the call again (the same as `invalidateCall(name)`). */
  reload: () => Promise<void>;
}

export interface PagedList<R> extends CallPage<R> {
  /** 0-based, as the calls count pages. */
  page: number;
  pageSize: number;
  setPage: (page: number) => void;
}

/**
 * One page of a list call (`{list, total}`) whose page the caller keeps (in the address, say); `null`
 * fields read nothing. The rows of the previous page stay on screen while the next one is read.
 */
export function useCallPage<N extends PagedCall>(name: N, fields: CallFields<N> | null): CallPage<RowOf<N>> {
  const result = useCall(name, fields, { keepPrevious: true });
  const reload = useCallback(() => invalidateCall(name), [name]);
  // A paged call's answer is a page of its rows (PagedCall); TypeScript cannot see through the generic name.
  const data: Page<RowOf<N>> | undefined = result.isError ? undefined : (result.data as Page<RowOf<N>> | undefined);
  return { rows: data?.list ?? NO_ROWS, total: data?.total ?? 0, loading: result.isFetching, failed: result.isError, reload };
}

/**
 * One page of a list call (`{list, total}`) for an administration table, read through the query cache. A
 * change of `query` (compared by value) goes back to the first page; the rows of the previous page stay on
 * screen while the next one is read; `reload` (the same as `invalidateCall(name)` after a change) reads it again. A
 * failed read shows an empty table.
 */
export function usePagedList<N extends PagedCall>(
  name: N,
  query: Omit<CallFields<N>, 'page' | 'size'>,
  pageSize = 20,
): PagedList<RowOf<N>> {
  const key = JSON.stringify(query);
  // The page belongs to the query it was chosen for: a new query starts at page 0.
  const [chosen, setChosen] = useState({ key, page: 0 });
  const effectivePage = chosen.key === key ? chosen.page : 0;
  const setPage = useCallback((p: number) => setChosen({ key, page: p }), [key]);
  const fields = { ...query, page: effectivePage, size: pageSize } as CallFields<N>;
  return { ...useCallPage(name, fields), page: effectivePage, pageSize, setPage };
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
