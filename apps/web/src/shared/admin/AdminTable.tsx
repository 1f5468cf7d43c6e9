import { useEffect, useRef, useState, type Key, type ReactNode, type RefObject } from 'react';
import { Empty, Table, type TableColumnsType, type TableProps } from 'antd';
import { useI18n } from '../i18n';
import { columnsWidth, fitColumnWidths } from './tableWidth';
import { tablePagination, type PagedList } from './usePagedList';

type Rows<R> =
  /** One page of a server-paged list call (usePagedList). */
  | { list: PagedList<R>; rows?: never; loading?: never; pageSize?: never }
  /** Rows already on the client, paged here by `pageSize` (every row on one page without it). */
  | { list?: never; rows: readonly R[]; loading: boolean; pageSize?: number };

export type AdminTableProps<R> = Rows<R> & {
  columns: TableColumnsType<R>;
  /** What the empty table says. */
  empty: ReactNode;
  /** The empty table's picture: the small one (default) or antd's full one. */
  emptyImage?: 'simple' | 'default';
  /** The table's test id (`data-testid`). */
  testId: string;
  rowKey?: TableProps<R>['rowKey'];
  size?: 'small' | 'middle';
  /**
   * Fit the columns to the table's box: the columns that cut their text (ellipsis) give up width first
   * (fitColumnWidths), and only past that does the table scroll sideways, at its columns' summed width, so
   * that no column stays hidden under one pinned to the right.
   */
  fitColumns?: boolean;
  /** Client-side paging: the current page (1-based) and its change, when the screen keeps it. */
  page?: { current: number; onChange: (page: number) => void };
} & Pick<TableProps<R>, 'rowClassName' | 'onRow' | 'rowSelection' | 'expandable' | 'footer'>;

/**
 * The table of an administration screen: its columns, the loading state, the empty state with the screen's
 * words, and paging with the total ("{total} in all"): the server's pages of a PagedList, or client-side pages
 * of rows already read.
 */
export function AdminTable<R extends object>(props: AdminTableProps<R>): ReactNode {
  const { t } = useI18n();
  const { columns, empty, emptyImage = 'simple', testId, rowKey = 'id', size = 'middle', fitColumns, page, ...rest } = props;
  const showTotal = (total: number) => t('admin.total', { total });
  const [box, boxWidth] = useBoxWidth();
  const shown = fitColumns ? (fitColumnWidths(columns, boxWidth) as TableColumnsType<R>) : columns;
  const extra = { rowClassName: rest.rowClassName, onRow: rest.onRow, rowSelection: rest.rowSelection, expandable: rest.expandable, footer: rest.footer };
  const pagination: TableProps<R>['pagination'] = props.list
    ? tablePagination(props.list, showTotal)
    : props.pageSize === undefined
      ? false
      : {
          pageSize: props.pageSize,
          showSizeChanger: false,
          size: 'small',
          showTotal,
          ...(page ? { current: page.current, onChange: page.onChange, total: props.rows.length } : {}),
        };
  const table = (
    <Table<R>
      rowKey={rowKey}
      size={size}
      loading={props.list ? props.list.loading : props.loading}
      columns={shown}
      dataSource={props.list ? props.list.rows : props.rows}
      scroll={fitColumns ? { x: columnsWidth(shown) } : undefined}
      pagination={pagination}
      locale={{ emptyText: <Empty image={emptyImage === 'simple' ? Empty.PRESENTED_IMAGE_SIMPLE : undefined} description={empty} /> }}
      data-testid={testId}
      {...extra}
    />
  );
  return fitColumns ? <div ref={box}>{table}</div> : table;
}

/** The width of a box (0 until it is measured, and where there is no ResizeObserver), following its changes. */
function useBoxWidth(): [RefObject<HTMLDivElement | null>, number] {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [box, width];
}

/** Keys of the rows, as antd's selection hands them over, as strings. */
export const keysOf = (keys: readonly Key[]): string[] => keys.map(String);
