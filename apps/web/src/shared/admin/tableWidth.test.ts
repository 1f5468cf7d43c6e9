import { describe, expect, it } from 'vitest';
import { SQUEEZED_MIN, columnsWidth, fitColumnWidths } from './tableWidth';

describe('table scroll width', () => {
  it('adds up the column widths, counting a column without one as 120 px', () => {
    expect(columnsWidth([{ width: 200 }, { width: 170 }, {}, { width: '20%' }])).toBe(200 + 170 + 120 + 120);
    expect(columnsWidth([])).toBe(0);
  });
});

// The user list of a super administrator: 1,550 px, four columns that cut their text (ellipsis).
const USERS = [
  { key: 'nick', width: 180 },
  { key: 'phone', width: 170, ellipsis: true },
  { key: 'email', width: 160, ellipsis: true },
  { key: 'company', width: 110 },
  { key: 'team', width: 120, ellipsis: true },
  { key: 'functions', width: 120 },
  { key: 'validity', width: 160 },
  { key: 'state', width: 90 },
  { key: 'notes', width: 100, ellipsis: true },
  { key: 'created', width: 170 },
  { key: 'actions', width: 170, fixed: 'right' },
];
const widthOf = (cols: readonly { key: string; width?: number | string }[], key: string) => cols.find((c) => c.key === key)?.width;

describe('fitting the columns to the table box', () => {
  it('leaves the columns as they are when they fit, or before the box is measured', () => {
    expect(fitColumnWidths(USERS, 1600)).toBe(USERS);
    expect(fitColumnWidths(USERS, 0)).toBe(USERS);
  });

  it('squeezes only the columns that cut their text, so that the row fits the box and nothing scrolls under the pinned column', () => {
    for (const box of [1385, 1300, 1225]) {
      const fitted = fitColumnWidths(USERS, box);
      expect(columnsWidth(fitted)).toBeLessThanOrEqual(box);
      expect(columnsWidth(fitted)).toBeGreaterThan(box - 4);
      for (const key of ['nick', 'company', 'functions', 'validity', 'state', 'created', 'actions']) expect(widthOf(fitted, key)).toBe(widthOf(USERS, key));
      for (const key of ['phone', 'email', 'team', 'notes']) expect(widthOf(fitted, key)).toBeGreaterThanOrEqual(SQUEEZED_MIN);
    }
    // Each squeezed column gives in proportion to what it can give: the wider one stays wider.
    const at1385 = fitColumnWidths(USERS, 1385);
    expect(widthOf(at1385, 'phone')).toBeGreaterThan(widthOf(at1385, 'notes') as number);
  });

  it('stops at the columns’ minimum widths, and the table then scrolls at their sum', () => {
    const fitted = fitColumnWidths(USERS, 900);
    for (const key of ['phone', 'email', 'team', 'notes']) expect(widthOf(fitted, key)).toBe(SQUEEZED_MIN);
    expect(columnsWidth(fitted)).toBe(1000 + 4 * SQUEEZED_MIN);
    expect(fitColumnWidths([{ width: 300, ellipsis: true, minWidth: 200 }, { width: 100 }], 250)).toEqual([{ width: 200, ellipsis: true, minWidth: 200 }, { width: 100 }]);
  });
});
