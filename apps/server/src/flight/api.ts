// What other features use of flight: the state checks on a device's live data (in the air, a process
// running, a control hold), the flight runtime's types, and a command verdict as text.
export { holdAllows, inAir, processRunning } from './checks.js';
export type { Actor, CommandAnswer, FlightRuntime } from './types.js';
export { verdictText, type Verdict } from './reply.js';
