import { describe, expect, it } from 'vitest';
import { columnsWidth } from './tableWidth';

describe('table scroll width', () => {
  it('adds up the column widths, counting a column without one as 120 px', () => {
    expect(columnsWidth([{ width: 200 }, { width: 170 }, {}, { width: '20%' }])).toBe(200 + 170 + 120 + 120);
    expect(columnsWidth([])).toBe(0);
  });
});
