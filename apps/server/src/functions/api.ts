// What other features use of functions: the functions a user's list grants, every function's state, and the
// function id of user editing.
export { functionStates, grantedFunctions } from './store.js';
export { USER_EDIT_FUNCTION } from './seed.js';
