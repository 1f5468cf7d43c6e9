export { groupHandlers } from './handlers.js';
export { GroupShares, SHARE_CACHE_MS, sharesOf } from './shares.js';
