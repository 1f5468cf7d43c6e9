/**
 * The fleet as every screen sees it: the devices of /device/list kept live by pushes (useFleet), the pure
 * state changes behind it (fleet.ts), the status badge, and the reads a screen starts before it mounts.
 */
export * from './fleet';
export { useFleet, FLEET_FIRST_READ, type FleetState } from './useFleet';
export { StatusBadge } from './StatusBadge';
export { keepFirstReads, takeFirstRead, clearFirstReads, firstReadsTooLate } from './firstReads';
