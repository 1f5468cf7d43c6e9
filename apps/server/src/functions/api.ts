// What other features use of functions: the functions a user's list grants (also read in the session lookup's
// own statement), every function's state, and the function id of user editing.
export { deletedFunctionNamedBy, functionStates, grantedFunctions, withoutDeleted } from './store.js';
export { USER_EDIT_FUNCTION } from './seed.js';
