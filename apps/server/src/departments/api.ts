// What other features use of departments: a department read when it is live (not deleted).
export { liveDepartment } from './store.js';
