export { connectPilot, connectState, findBridge, parseAnswer, BridgeError } from './bridge';
export type { DjiBridge, PilotLogin, BridgeAnswer } from './bridge';
