import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { installMatchMedia } from '../../test/dom';
import { AdminTable } from './AdminTable';

/** A ResizeObserver that reports its box as this wide, as a browser does when it starts observing. */
let boxWidth = 0;
class FixedBox {
  constructor(private readonly report: ResizeObserverCallback) {}
  observe(target: Element): void {
    this.report([{ target, contentRect: { width: boxWidth } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
  }
  unobserve(): void {}
  disconnect(): void {}
}

const realResizeObserver = globalThis.ResizeObserver;
beforeAll(() => {
  installMatchMedia();
  globalThis.ResizeObserver = FixedBox as unknown as typeof ResizeObserver;
});
afterAll(() => {
  globalThis.ResizeObserver = realResizeObserver;
});
afterEach(() => cleanup());

type Row = { id: string; name: string; notes: string; created: string };
const COLUMNS = [
  { title: 'Name', key: 'name', dataIndex: 'name', width: 400, ellipsis: true },
  { title: 'Notes', key: 'notes', dataIndex: 'notes', width: 300, ellipsis: true },
  { title: 'Created', key: 'created', dataIndex: 'created', width: 170 },
  { title: 'Actions', key: 'actions', width: 170, fixed: 'right' as const, render: () => 'edit' },
];
const ROWS: Row[] = [{ id: '1', name: 'Patrol B01', notes: 'night shift', created: '2026-11-26 17:12:05' }];
const colWidths = () => [...screen.getByTestId('t').querySelectorAll('colgroup col')].map((c) => (c as HTMLElement).style.width);

describe('administration table column fitting', () => {
  it('squeezes the columns that cut their text into a narrower box, keeping the pinned and the time columns', async () => {
    boxWidth = 900;
    render(<AdminTable<Row> rows={ROWS} loading={false} columns={COLUMNS} fitColumns empty="none" testId="t" />);
    await screen.findByText('Patrol B01');
    // 1,040 px of columns in a 900 px box: the name and notes columns give up 140 px between them, each in
    // proportion to what it can give above 56 px (344 and 244 px).
    await waitFor(() => expect(colWidths()).toEqual(['318px', '241px', '170px', '170px']));
  });

  it('keeps the widths as given when they fit', async () => {
    boxWidth = 1400;
    render(<AdminTable<Row> rows={ROWS} loading={false} columns={COLUMNS} fitColumns empty="none" testId="t" />);
    await screen.findByText('Patrol B01');
    expect(colWidths()).toEqual(['400px', '300px', '170px', '170px']);
  });
});
