// What other features use of no-fly zones: the zones that restrict a route (at takeoff or ahead, when it is
// saved), geo's no-fly rule worded in both languages and the zone as the pre-flight check names it. The calls
// are registered by index.ts (the demo seed runs handlers.ts as the console would).
export { firstNoFlyLabel, noFlyIssues, noFlyLabel, routeNoFly, type NoFlyRule, type NoFlyWhen } from './rules.js';
export { presentNoFly } from './store.js';
