/**
 * Texts of the fleet views (merged into the catalogs under `fleet` by the app). Keep both languages with the
 * same keys: the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const fleetZh = {
  /** A held device (online status 3): by the signed-in user, or by someone else. */
  status: {
    mine: '由您控制',
    heldBy: '{nick} 连接中',
  },
};

export const fleetEn: typeof fleetZh = {
  status: {
    mine: 'Controlled by you',
    heldBy: 'Connected by {nick}',
  },
};
