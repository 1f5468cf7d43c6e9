// What other features use of sorties: devices' display names, the sortie of a flight, results attached
// and counted on their sortie.
export { attachEarlyResults, deviceNames, sortieOfFlight, syncSortieCount } from './store.js';
