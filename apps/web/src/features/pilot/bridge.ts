/**
 * DJI Pilot 2's JSBridge (`window.djiBridge`), the API its built-in browser gives a cloud page: the page verifies
 * the platform licence, names the workspace and loads the "thing" component with the broker login, after which
 * Pilot 2 (and a dock set up from it) connects to our MQTT broker. Every call answers a JSON string
 * `{code, message, data}`; code 0 is success.
 */
export interface DjiBridge {
  platformVerifyLicense(appId: string, appKey: string, license: string): string;
  platformSetWorkspaceId(workspaceId: string): string;
  platformSetInformation(platformName: string, workspaceName: string, desc: string): string;
  platformLoadComponent(name: string, param: string): string;
  thingGetConnectState(): string;
  /** The sn of the remote controller Pilot 2 runs on (`data`), the gateway's MQTT user name. */
  platformGetRemoteControllerSN(): string;
}

/** A bridge answer, parsed; a non-JSON answer counts as a failure carrying the raw text. */
export interface BridgeAnswer {
  code: number;
  message: string;
  data: unknown;
}

export function parseAnswer(raw: unknown): BridgeAnswer {
  if (typeof raw !== 'string') return { code: -1, message: String(raw), data: undefined };
  try {
    const value = JSON.parse(raw) as Partial<BridgeAnswer>;
    return {
      code: typeof value.code === 'number' ? value.code : -1,
      message: typeof value.message === 'string' ? value.message : '',
      data: value.data,
    };
  } catch {
    return { code: -1, message: raw, data: undefined };
  }
}

/** The bridge when the page runs inside DJI Pilot 2, undefined in an ordinary browser. */
export function findBridge(scope: object = globalThis): DjiBridge | undefined {
  const bridge = (scope as { djiBridge?: DjiBridge }).djiBridge;
  return bridge && typeof bridge.platformLoadComponent === 'function' ? bridge : undefined;
}

export interface PilotLogin {
  appId: string;
  appKey: string;
  appLicense: string;
  workspaceId: string;
  platformName: string;
  workspaceName: string;
  desc: string;
  mqttUrl: string;
  username: string;
  password: string;
  /** Name of a global function Pilot 2 calls with the connect state. */
  connectCallback: string;
}

/** The step that failed and the bridge's own answer, so the page can show both. */
export class BridgeError extends Error {
  constructor(
    readonly step: string,
    readonly answer: BridgeAnswer,
  ) {
    super(`${step}: ${answer.message || `code ${answer.code}`}`);
  }
}

function check(step: string, raw: unknown): BridgeAnswer {
  const answer = parseAnswer(raw);
  if (answer.code !== 0) throw new BridgeError(step, answer);
  return answer;
}

/**
 * Hands Pilot 2 the cloud login in the order DJI's document requires: licence first (the other calls are refused
 * without it), then workspace and platform information, then the thing component with the broker login.
 */
export function connectPilot(bridge: DjiBridge, login: PilotLogin): void {
  check('platformVerifyLicense', bridge.platformVerifyLicense(login.appId, login.appKey, login.appLicense));
  check('platformSetWorkspaceId', bridge.platformSetWorkspaceId(login.workspaceId));
  check('platformSetInformation', bridge.platformSetInformation(login.platformName, login.workspaceName, login.desc));
  check(
    'platformLoadComponent',
    bridge.platformLoadComponent(
      'thing',
      JSON.stringify({
        host: login.mqttUrl,
        username: login.username,
        password: login.password,
        connectCallback: login.connectCallback,
      }),
    ),
  );
}

/** Whether Pilot 2's thing component is connected to the broker (`data` true). */
export function connectState(bridge: DjiBridge): boolean {
  return check('thingGetConnectState', bridge.thingGetConnectState()).data === true;
}

/** The remote controller's sn as Pilot 2 reports it; a refusal or an empty sn is a BridgeError. */
export function remoteControllerSn(bridge: DjiBridge): string {
  const step = 'platformGetRemoteControllerSN';
  const answer = check(step, bridge.platformGetRemoteControllerSN());
  const sn = typeof answer.data === 'string' ? answer.data.trim() : '';
  if (!sn) throw new BridgeError(step, { ...answer, code: -1 });
  return sn;
}

/** The steps of `connectPilot`, in order (the page lists them with their state). */
export const CONNECT_STEPS = ['platformVerifyLicense', 'platformSetWorkspaceId', 'platformSetInformation', 'platformLoadComponent'] as const;

/**
 * Reads the connect state Pilot 2 passes to the thing component's `connectCallback`: DJI's page receives a
 * boolean, some versions pass it as a string or a number.
 */
export const isConnected = (arg: unknown): boolean => arg === true || arg === 'true' || arg === 1 || arg === '1';
