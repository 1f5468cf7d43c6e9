// What other features use of audit: writing an audit entry, and the actor a call's caller is recorded as.
export { actorOf, audit } from './store.js';
