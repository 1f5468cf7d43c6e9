/**
 * Texts of this feature (merged into the catalogs under `results`). Keep both languages with the same keys:
 * the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const resultsZh = {
  title: '成果',
};

export const resultsEn: typeof resultsZh = {
  title: 'Results',
};
