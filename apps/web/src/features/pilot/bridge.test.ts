import { describe, expect, it } from 'vitest';
import { BridgeError, connectPilot, connectState, findBridge, isConnected, parseAnswer, remoteControllerSn, type PilotLogin } from './bridge';
import { fakeBridge, ok } from './testing';

const login: PilotLogin = {
  appId: '123',
  appKey: 'key',
  appLicense: 'lic',
  workspaceId: 'ws-1',
  platformName: 'Nest',
  workspaceName: 'Acme',
  desc: 'DJI Dock J01',
  mqttUrl: 'tcp://10.0.0.2:1883',
  username: 'dji-SN1',
  password: 'pw',
  connectCallback: 'pilotConnectCallback',
};

describe('Pilot 2 bridge', () => {
  it('verifies the licence, sets workspace and information, then loads the thing component with the login', () => {
    const { bridge, calls } = fakeBridge();
    connectPilot(bridge, login);
    expect(calls).toEqual([
      ['platformVerifyLicense', '123', 'key', 'lic'],
      ['platformSetWorkspaceId', 'ws-1'],
      ['platformSetInformation', 'Nest', 'Acme', 'DJI Dock J01'],
      ['platformLoadComponent', 'thing', expect.any(String) as string],
    ]);
    expect(JSON.parse(calls[3]![2]!)).toEqual({
      host: 'tcp://10.0.0.2:1883',
      username: 'dji-SN1',
      password: 'pw',
      connectCallback: 'pilotConnectCallback',
    });
  });

  it('stops at a refused licence and reports the step and the bridge message', () => {
    const { bridge, calls } = fakeBridge({ platformVerifyLicense: JSON.stringify({ code: 4001, message: 'license invalid' }) });
    let error: unknown;
    try {
      connectPilot(bridge, login);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BridgeError);
    expect((error as BridgeError).step).toBe('platformVerifyLicense');
    expect((error as BridgeError).answer).toMatchObject({ code: 4001, message: 'license invalid' });
    expect(calls).toHaveLength(1);
  });

  it('reads the connect state', () => {
    expect(connectState(fakeBridge().bridge)).toBe(true);
    expect(connectState(fakeBridge({ thingGetConnectState: ok(false) }).bridge)).toBe(false);
  });

  it('parses non-JSON answers as failures and finds the bridge only when it is there', () => {
    expect(parseAnswer('boom')).toEqual({ code: -1, message: 'boom', data: undefined });
    expect(findBridge({})).toBeUndefined();
    const { bridge } = fakeBridge();
    expect(findBridge({ djiBridge: bridge })).toBe(bridge);
  });

  it('reads the remote controller sn and refuses an empty one', () => {
    expect(remoteControllerSn(fakeBridge().bridge)).toBe('RC-1');
    expect(() => remoteControllerSn(fakeBridge({ platformGetRemoteControllerSN: ok('') }).bridge)).toThrow(BridgeError);
    expect(isConnected(true)).toBe(true);
    expect(isConnected('true')).toBe(true);
    expect(isConnected(false)).toBe(false);
    expect(isConnected(undefined)).toBe(false);
  });
});
