import type { ReactNode } from 'react';
import { Tag, type TableColumnsType } from 'antd';
import { RecordState } from '@nest/contracts';
import { formatSeconds } from '../format';
import { getLang, t } from '../i18n';

type Column<R> = TableColumnsType<R>[number];

/** A time column (seconds since the epoch), on one line: creation, modification, an event's time. */
export function timeColumn<R>(title: ReactNode, key: string, at: (row: R) => number, width?: number): Column<R> {
  return { title, key, width, render: (_: unknown, row: R) => <span className="admin-nowrap">{formatSeconds(at(row))}</span> };
}

/** The record state (normal / deleted) as a tag, green when normal. */
export function recordStateColumn<R extends { state: number }>(width?: number): Column<R> {
  return {
    title: t('admin.state'),
    key: 'state',
    width,
    render: (_: unknown, row: R) => <Tag color={row.state === RecordState.NORMAL ? 'green' : 'default'}>{RecordState.label(row.state, getLang())}</Tag>,
  };
}

/** The notes, cut to the column's width ("--" when there are none). */
export function notesColumn<R extends { notes?: string | null }>(width?: number): Column<R> {
  return { title: t('admin.notes'), key: 'notes', width, ellipsis: true, render: (_: unknown, row: R) => row.notes || '--' };
}

/**
 * The row actions column, as a list to spread into the columns: empty when the user may do nothing (`show`
 * false), and then the table has no actions column at all.
 */
export function actionsColumn<R>(show: boolean, render: (row: R) => ReactNode, layout: { width?: number; fixed?: 'right' } = {}): TableColumnsType<R> {
  return show ? [{ title: t('admin.actions'), key: 'actions', ...layout, render: (_: unknown, row: R) => render(row) }] : [];
}

/** A device: its name, and under it its serial number, muted. */
export function deviceColumn<R extends { name: string; sn_id: string }>(title: ReactNode): Column<R> {
  return {
    title,
    key: 'device',
    render: (_: unknown, d: R) => (
      <div>
        <div>{d.name}</div>
        <div className="admin-muted">{d.sn_id}</div>
      </div>
    ),
  };
}
