// What other features use of no-fly zones: the zones that restrict a route (at takeoff or ahead, when it is
// saved), geo's no-fly rule worded in both languages, the zone as the pre-flight check names it, and the
// calls (which the demo seed runs as the console would).
export { firstNoFlyLabel, noFlyIssues, noFlyLabel, routeNoFly, type NoFlyRule, type NoFlyWhen } from './rules.js';
export { presentNoFly } from './store.js';
export { noFlyHandlers } from './handlers.js';
