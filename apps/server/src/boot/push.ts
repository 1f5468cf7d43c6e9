import { decryptOaep } from '../auth/keys.js';
import { findLiveSession, hashToken, sessionAccess } from '../auth/sessions.js';
import type { AppDeps } from '../deps.js';
import { fleetEntryOf } from '../devices/index.js';
import { sharesOf } from '../groups/index.js';
import type { PushPorts } from '../push/hub.js';

/** What the push hub asks of the features: sessions (auth), group shares (groups), fleet entries (devices). */
export function pushPorts(deps: Pick<AppDeps, 'db' | 'sessions' | 'keys'>): PushPorts {
  return {
    sessions: {
      tokenHash: hashToken,
      find: (token) => findLiveSession(deps.db, token, deps.sessions),
      access: (sessionId) => sessionAccess(deps.db, sessionId, deps.sessions),
      shared: (userId) => sharesOf(deps.db).of(userId),
      forgetShares: () => sharesOf(deps.db).forget(),
    },
    openLicence: (sealed) => decryptOaep(deps.keys.licence, sealed),
    fleetEntry: fleetEntryOf,
  };
}
