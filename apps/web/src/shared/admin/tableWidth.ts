/** Width given to a column that sets none, when the table's scroll width is added up. */
const UNSIZED_COLUMN = 120;
/** The narrowest a column that cuts its text (ellipsis) is squeezed to when the table is too wide for its box. */
export const SQUEEZED_MIN = 56;

type Sized = { width?: number | string; ellipsis?: unknown; minWidth?: number };

/**
 * A table's horizontal scroll width: the sum of its columns' widths. A smaller fixed number let antd squeeze
 * the columns into the page, and a column pinned to the right then covered the end of the one before it
 * (the user list's creation time was cut off at 1600 px).
 */
export function columnsWidth(columns: readonly { width?: number | string }[]): number {
  return columns.reduce<number>((sum, c) => sum + (typeof c.width === 'number' ? c.width : UNSIZED_COLUMN), 0);
}

/**
 * The columns of a table whose box is `available` px wide. When their widths add up to more, the columns that
 * cut their text (ellipsis) give up width, each in proportion to what it can give (down to its `minWidth`, or
 * SQUEEZED_MIN), until the row fits the box; the others (times, actions, tags) keep theirs. Only when even
 * that is too wide does the table scroll, at its columns' summed width. Without this, a table a little wider
 * than the window scrolled, and the column pinned to the right covered the columns under it (the user list's
 * creation time, at 1440 px in Chinese).
 */
export function fitColumnWidths<C extends Sized>(columns: readonly C[], available: number): readonly C[] {
  const over = columnsWidth(columns) - available;
  if (!(available > 0) || over <= 0) return columns;
  const floor = (c: C) => (typeof c.width === 'number' && c.ellipsis ? Math.min(c.width, c.minWidth ?? SQUEEZED_MIN) : undefined);
  const room = columns.reduce((sum, c) => sum + (floor(c) === undefined ? 0 : (c.width as number) - (floor(c) as number)), 0);
  if (room <= 0) return columns;
  const share = Math.min(1, over / room);
  return columns.map((c) => {
    const min = floor(c);
    if (min === undefined) return c;
    const width = c.width as number;
    return { ...c, width: Math.floor(width - (width - min) * share) };
  });
}
