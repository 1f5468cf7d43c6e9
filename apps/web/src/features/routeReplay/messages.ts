/**
 * Texts of this feature (merged into the catalogs under `replay`). Keep both languages with the same keys:
 * the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const replayZh = {
  title: '成果回放',
};

export const replayEn: typeof replayZh = {
  title: 'Result replay',
};
