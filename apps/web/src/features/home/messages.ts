/**
 * Texts of this feature (merged into the catalogs under `dashboard`). Keep both languages with the same keys:
 * the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const dashboardZh = {
  title: '数据大屏',
};

export const dashboardEn: typeof dashboardZh = {
  title: 'Data screen',
};
