// What other features use of missions: the checks of a stored route (fences, flight).
export { storedRouteIssues } from './plan.js';
