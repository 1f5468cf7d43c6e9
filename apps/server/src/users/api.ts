// What other features use of users: the company and user reads, a user as calls present them, and a stored
// function list parsed.
export { findCompany, findUserByAccount, parseFunList, presentUser } from './store.js';
