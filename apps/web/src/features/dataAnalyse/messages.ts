/**
 * Texts of this feature (merged into the catalogs under `analysis`). Keep both languages with the same keys:
 * the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const analysisZh = {
  title: '数据分析',
};

export const analysisEn: typeof analysisZh = {
  title: 'Data analysis',
};
