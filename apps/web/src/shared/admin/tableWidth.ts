/** Width given to a column that sets none, when the table's scroll width is added up. */
const UNSIZED_COLUMN = 120;

/**
 * A table's horizontal scroll width: the sum of its columns' widths. A smaller fixed number let antd squeeze
 * the columns into the page, and a column pinned to the right then covered the end of the one before it
 * (the user list's creation time was cut off at 1600 px).
 */
export function columnsWidth(columns: readonly { width?: number | string }[]): number {
  return columns.reduce<number>((sum, c) => sum + (typeof c.width === 'number' ? c.width : UNSIZED_COLUMN), 0);
}
