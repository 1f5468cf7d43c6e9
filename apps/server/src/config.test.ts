import path from 'node:path';
import { DEFAULT_SERVICE_BASES, TOKEN_COOKIE_HOURS } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_WEB_DIST, loadConfig } from './config.js';

describe('loadConfig: device link, simulator and live video', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({ DATA_DIR: '/srv/nest' })).toMatchObject({
      mqttUsername: 'nest-server',
      mqttPassword: null,
      simulator: true,
      simCenter: { lat: 22.5431, lng: 114.0579 },
      simNests: 3,
      simDrones: 2,
      simRateHz: 1,
      liveDir: '/srv/nest/live',
      liveUrlBase: '/live',
      deviceHoldSeconds: 60,
      videoIdleStopMs: 60_000,
    });
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        MQTT_USERNAME: 'console',
        MQTT_PASSWORD: 'broker pass',
        SIMULATOR: 'off',
        SIM_CENTER: '39.9042, 116.4074',
        SIM_NESTS: '10',
        SIM_DRONES: '0',
        SIM_RATE_HZ: '2.5',
        LIVE_DIR: '/var/live',
        LIVE_URL_BASE: 'https://media.example.com/live',
        SIM_DJI_DOCKS: '3',
        MQTT_HOST: '0.0.0.0',
        DEVICE_MQTT_URL: 'tcp://192.168.1.10:1883',
        DEVICE_HTTP_BASE: 'http://192.168.1.10:8080',
        DEVICE_RTMP_URL: 'rtmp://192.168.1.10:1935',
        RTMP_PORT: '19350',
        RTMP_HOST: '0.0.0.0',
        DJI_NTP_SERVER: 'ntp.aliyun.com',
        DJI_APP_ID: '123456',
        DJI_APP_KEY: 'key',
        DJI_APP_LICENSE: 'licence text',
      }),
    ).toMatchObject({
      simDjiDocks: 3,
      mqttHost: '0.0.0.0',
      deviceMqttUrl: 'tcp://192.168.1.10:1883',
      deviceHttpBase: 'http://192.168.1.10:8080',
      deviceRtmpUrl: 'rtmp://192.168.1.10:1935',
      rtmpPort: 19350,
      rtmpHost: '0.0.0.0',
      dji: { ntpServer: 'ntp.aliyun.com', appId: '123456', appKey: 'key', appLicense: 'licence text' },
      mqttUsername: 'console',
      mqttPassword: 'broker pass',
      simulator: false,
      simCenter: { lat: 39.9042, lng: 116.4074 },
      simNests: 10,
      simDrones: 0,
      simRateHz: 2.5,
      liveDir: '/var/live',
      liveUrlBase: 'https://media.example.com/live',
    });
    expect(loadConfig({ SIMULATOR: 'on' }).simulator).toBe(true);
    expect(loadConfig({})).toMatchObject({ simDjiDocks: 1, deviceMqttUrl: null, deviceHttpBase: null, deviceRtmpUrl: null, rtmpPort: 1935, rtmpHost: '127.0.0.1', dji: { ntpServer: 'pool.ntp.org', appId: '' } });
  });

  it('reads the demo mission and time scale settings', () => {
    expect(loadConfig({})).toMatchObject({ simTimeScale: 1, demoMissions: true, demoMissionMinutes: 20 });
    // Demo missions follow the simulator unless set.
    expect(loadConfig({ SIMULATOR: 'off' }).demoMissions).toBe(false);
    expect(loadConfig({ DEMO_MISSIONS: 'off' }).demoMissions).toBe(false);
    expect(loadConfig({ SIM_TIME_SCALE: '10', DEMO_MISSIONS: 'on', DEMO_MISSION_MINUTES: '5' })).toMatchObject({
      simTimeScale: 10,
      demoMissions: true,
      demoMissionMinutes: 5,
    });
    expect(loadConfig({ SIM_TIME_SCALE: '0.5' }).simTimeScale).toBe(0.5);
    expect(loadConfig({}).simWeather).toBe('varied');
    expect(loadConfig({ SIM_WEATHER: 'Calm' }).simWeather).toBe('calm');
  });
});

describe('CLUSTER_NAME', () => {
  it('makes a cluster of the instances of an external broker only', () => {
    expect(loadConfig({ CLUSTER_NAME: 'site-a' }).clusterName).toBeNull();
    expect(loadConfig({ MQTT_URL: 'mqtt://b:1883', CLUSTER_NAME: 'site-a' }).clusterName).toBe('site-a');
    expect(loadConfig({ MQTT_URL: 'mqtt://b:1883', CLUSTER_NAME: 'off' }).clusterName).toBeNull();
  });

  it('refuses a name that is not one topic level', () => {
    for (const bad of ['a/b', 'a+', '#', 'x'.repeat(65)]) {
      expect(() => loadConfig({ MQTT_URL: 'mqtt://b:1883', CLUSTER_NAME: bad })).toThrow(/CLUSTER_NAME/);
    }
  });
});

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      mqttUrl: null,
      clusterName: null,
      mqttPort: 1883,
      mqttBrokerThread: true,
      bases: DEFAULT_SERVICE_BASES,
      adminAccount: 'admin@nest.local',
      adminPassword: null,
      sessionIdleMinutes: 120,
      sessionMaxHours: TOKEN_COOKIE_HOURS,
      uploadMaxBytes: 200 * 1024 * 1024,
      trustProxy: false,
      webDist: DEFAULT_WEB_DIST,
      logLevel: 'info',
    });
    expect(DEFAULT_WEB_DIST.endsWith(path.join('apps', 'web', 'dist'))).toBe(true);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '9090',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/nest-data',
      DATABASE_URL: 'postgres://u:p@db:5432/nest',
      MQTT_URL: 'mqtt://broker:1883',
      MQTT_PORT: '1884',
      BASE_USER: '/svc/user',
      BASE_DEVICE: '/svc/device',
      BASE_ZONE: '/svc/zone',
      BASE_MT: '/svc/mt',
      BASE_VIDEO: '/svc/video',
      ADMIN_ACCOUNT: '13800000000',
      ADMIN_PASSWORD: 'secret-pass',
      SESSION_IDLE_MINUTES: '30',
      SESSION_MAX_HOURS: '8',
      UPLOAD_MAX_MB: '5',
      TRUST_PROXY: 'true',
      WEB_DIST: '/srv/web',
      LOG_LEVEL: 'warn',
    });
    expect(c).toMatchObject({
      port: 9090,
      host: '0.0.0.0',
      dataDir: '/tmp/nest-data',
      databaseUrl: 'postgres://u:p@db:5432/nest',
      mqttUrl: 'mqtt://broker:1883',
      clusterName: 'nest',
      mqttPort: 1884,
      bases: { user: '/svc/user', device: '/svc/device', zone: '/svc/zone', mt: '/svc/mt', video: '/svc/video' },
      adminAccount: '13800000000',
      adminPassword: 'secret-pass',
      sessionIdleMinutes: 30,
      sessionMaxHours: 8,
      uploadMaxBytes: 5 * 1024 * 1024,
      trustProxy: true,
      webDist: '/srv/web',
      logLevel: 'warn',
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT must be an integer'],
    [{ MQTT_PORT: '-1' }, 'MQTT_PORT must be an integer'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must start with postgres://'],
    [{ MQTT_URL: 'http://x' }, 'MQTT_URL must start with mqtt://'],
    [{ BASE_USER: 'api/user' }, 'BASE_USER must be a path like /api/user'],
    [{ BASE_USER: '/api/user/' }, 'BASE_USER must be a path'],
    [{ BASE_USER: '/api/x', BASE_DEVICE: '/api/x' }, 'must differ'],
    [{ BASE_VIDEO: '/api/static' }, 'BASE_VIDEO must not be'],
    [{ ADMIN_ACCOUNT: 'admin' }, 'ADMIN_ACCOUNT must be a mainland mobile number or an e-mail address'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD must have 6 to 32 characters (got 5)'],
    [{ SESSION_IDLE_MINUTES: '0' }, 'SESSION_IDLE_MINUTES must be an integer'],
    [{ SESSION_MAX_HOURS: '1.5' }, 'SESSION_MAX_HOURS must be an integer'],
    [{ UPLOAD_MAX_MB: 'lots' }, 'UPLOAD_MAX_MB must be an integer'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY must be true or false'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [{ HOST: 'a b' }, 'HOST must be a host name or address'],
    [{ SIMULATOR: 'maybe' }, 'SIMULATOR must be on or off'],
    [{ SIM_CENTER: '22.5' }, 'SIM_CENTER must be "lat,lng"'],
    [{ SIM_WEATHER: 'stormy' }, 'SIM_WEATHER must be varied or calm'],
    [{ SIM_CENTER: '95,10' }, 'SIM_CENTER must be "lat,lng"'],
    [{ SIM_NESTS: '201' }, 'SIM_NESTS must be an integer from 0 to 200'],
    [{ SIM_DRONES: '-1' }, 'SIM_DRONES must be an integer'],
    [{ SIM_RATE_HZ: '20' }, 'SIM_RATE_HZ must be a number from 0.5 to 10'],
    [{ SIM_RATE_HZ: '0.1' }, 'SIM_RATE_HZ must be a number'],
    [{ SIM_TIME_SCALE: '0' }, 'SIM_TIME_SCALE must be a number from 0.1 to 100'],
    [{ SIM_TIME_SCALE: 'fast' }, 'SIM_TIME_SCALE must be a number'],
    [{ DEMO_MISSIONS: 'sometimes' }, 'DEMO_MISSIONS must be on or off'],
    [{ DEMO_MISSIONS: 'on', SIMULATOR: 'off' }, 'DEMO_MISSIONS=on needs SIMULATOR=on'],
    [{ DEMO_MISSION_MINUTES: '4' }, 'DEMO_MISSION_MINUTES must be an integer from 5 to 1440'],
    [{ DEMO_MISSION_MINUTES: '7.5' }, 'DEMO_MISSION_MINUTES must be an integer'],
    [{ LIVE_URL_BASE: 'live' }, 'LIVE_URL_BASE must be a path like /live'],
    [{ LIVE_URL_BASE: '/live/' }, 'LIVE_URL_BASE must be a path'],
    [{ MQTT_USERNAME: 'a/b' }, 'MQTT_USERNAME must be a user name'],
    [{ DEVICE_MQTT_URL: 'http://192.168.1.10:1883' }, 'DEVICE_MQTT_URL must be a mqtt or mqtts or tcp or ssl or ws or wss URL'],
    [{ DEVICE_MQTT_URL: '192.168.1.10:1883' }, 'DEVICE_MQTT_URL must be'],
    [{ DEVICE_HTTP_BASE: 'http://192.168.1.10:8080/' }, 'DEVICE_HTTP_BASE must be a http or https URL without a trailing slash'],
    [{ DJI_NTP_SERVER: 'ntp://time' }, 'DJI_NTP_SERVER must be a host name or address'],
    [{ DEVICE_RTMP_URL: 'http://192.168.1.10:1935' }, 'DEVICE_RTMP_URL must be a rtmp URL'],
    [{ DEVICE_RTMP_URL: 'rtmp://192.168.1.10:1935/' }, 'DEVICE_RTMP_URL must be a rtmp URL without a trailing slash'],
    [{ RTMP_PORT: '65536' }, 'RTMP_PORT must be an integer from 0 to 65535'],
    [{ RTMP_HOST: 'rtmp://0.0.0.0' }, 'RTMP_HOST must be a host name or address'],
    [{ MQTT_HOST: 'mqtt://0.0.0.0' }, 'MQTT_HOST must be a host name or address'],
    [{ SIM_DJI_DOCKS: '21' }, 'SIM_DJI_DOCKS must be an integer from 0 to 20'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
