import type { ReactNode } from 'react';
import type { TableColumnsType } from 'antd';
import { formatSeconds } from '../../shared/format';

type Column<R> = TableColumnsType<R>[number];

/** A time of a row (seconds since the epoch): when a download was asked for, when a package was uploaded. */
export function timeColumn<R>(title: string, key: string, at: (row: R) => number): Column<R> {
  return { title, key, width: 170, render: (_: unknown, row: R) => formatSeconds(at(row)) };
}

/** The buttons of a row, side by side. */
export function actionsColumn<R>(title: string, width: number, render: (row: R) => ReactNode): Column<R> {
  return { title, key: 'actions', width, render: (_: unknown, row: R) => <span className="offline-map-actions">{render(row)}</span> };
}
