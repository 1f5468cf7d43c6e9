// What other features use of auth: the live sessions (find, check, revoke, a user's status), password
// hashing and digests, the sealed request envelopes and new-password rule, and the failed-login throttle.
export { findLiveSession, hasLiveSession, revokeUserSessions, userStatus } from './sessions.js';
export { generatePassword, hashDigest, hashPassword, verifyDigest } from './passwords.js';
export { checkNewPassword, openRequestEnvelope } from './envelopes.js';
export { accountKey, clearAccount, isThrottled, recordFailure } from './throttle.js';
