export { CONNECT_STEPS, connectPilot, connectState, findBridge, isConnected, parseAnswer, remoteControllerSn, BridgeError } from './bridge';
export type { DjiBridge, PilotLogin, BridgeAnswer } from './bridge';
