import { describe, expect, it } from 'vitest';
import { djiCliOptions } from './cli.js';

const LOGIN = JSON.stringify({ mqtt_url: 'mqtt://127.0.0.1:1883', username: 'DOCK-01', password: 'p' });

describe('dji-dock CLI options', () => {
  it('takes the broker login from the line the server prints and the dock sn from its username', () => {
    expect(djiCliOptions(['--drone-sn', 'M3D-01', '--at', '22.5,114,40', '--time-scale', '10'], () => LOGIN)).toEqual({
      mqttUrl: 'mqtt://127.0.0.1:1883',
      username: 'DOCK-01',
      password: 'p',
      dockSn: 'DOCK-01',
      droneSn: 'M3D-01',
      position: { lat: 22.5, lng: 114, height: 40 },
      seed: 1,
      timeScale: 10,
    });
  });

  it('runs Pilot 2 on an RC Plus with --rc', () => {
    expect(djiCliOptions(['--drone-sn', 'M30-01', '--rc'], () => LOGIN)).toMatchObject({ gateway: 'rc', dockSn: 'DOCK-01', droneSn: 'M30-01' });
  });

  it('reads --login FILE and refuses bad input', () => {
    let asked: string | undefined;
    djiCliOptions(['--drone-sn', 'X', '--login', 'f.json'], (file) => ((asked = file), LOGIN));
    expect(asked).toBe('f.json');
    expect(() => djiCliOptions(['--drone-sn', 'X'], () => 'nope')).toThrow(/JSON line/);
    expect(() => djiCliOptions(['--drone-sn', 'X'], () => '{"mqtt_url":"x"}')).toThrow(/username/);
    expect(() => djiCliOptions([], () => LOGIN)).toThrow(/--drone-sn/);
    expect(() => djiCliOptions(['--drone-sn', 'X', '--at', '91,0,1'], () => LOGIN)).toThrow(/--at/);
    expect(() => djiCliOptions(['--drone-sn', 'X', '--time-scale', '0'], () => LOGIN)).toThrow(/time-scale/);
    expect(() => djiCliOptions(['--drone-sn', 'X', '--bogus'], () => LOGIN)).toThrow();
  });
});
