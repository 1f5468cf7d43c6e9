/**
 * Texts of this feature (merged into the catalogs under `alarms`). Keep both languages with the same keys:
 * the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const alarmsZh = {
  title: '告警',
};

export const alarmsEn: typeof alarmsZh = {
  title: 'Alarms',
};
