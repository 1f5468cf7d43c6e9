// What other features use of missions: the checks of a stored route (fences, flight).
export { storedRouteIssues } from './plan.js';
// The flight runtime: which part of a split survey flies next, and a part flown to its end.
export { groupFlightPart, markPartFlown } from './groups.js';
