// What other features use of fences: a fence read and refused, its geometry as route checks take it, and
// the fence calls, which the planning module (missions/index.ts) answers.
export { fenceInputOf, findFence, refusal, visibleDevice } from './store.js';
export { fenceHandlers } from './handlers.js';
