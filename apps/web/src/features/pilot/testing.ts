import type { DjiBridge } from './bridge';

/** A bridge answer in Pilot 2's shape: code 0 with `data`. */
export const ok = (data: unknown = null) => JSON.stringify({ code: 0, message: 'ok', data });

/** A stand-in for DJI Pilot 2's JSBridge recording every call with its arguments (tests only). */
export function fakeBridge(answers: Partial<Record<keyof DjiBridge, string>> = {}) {
  const calls: [string, ...string[]][] = [];
  const record =
    (name: keyof DjiBridge) =>
    (...args: string[]) => {
      calls.push([name, ...args]);
      return answers[name] ?? ok(name === 'thingGetConnectState' ? true : name === 'platformGetRemoteControllerSN' ? 'RC-1' : null);
    };
  const bridge: DjiBridge = {
    platformVerifyLicense: record('platformVerifyLicense'),
    platformSetWorkspaceId: record('platformSetWorkspaceId'),
    platformSetInformation: record('platformSetInformation'),
    platformLoadComponent: record('platformLoadComponent'),
    thingGetConnectState: record('thingGetConnectState'),
    platformGetRemoteControllerSN: record('platformGetRemoteControllerSN'),
  };
  return { bridge, calls };
}
