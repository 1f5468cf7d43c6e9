import { describe, expect, it } from 'vitest';
import { calls, type Device, type DeviceListItem } from '@nest/contracts';
import { callFieldsOf, emptyForm, formFromDevice, formIssues, withType, type DeviceFormValues } from './form';
import { blockOf, liveOf } from './rows';

const nest: Device = {
  id: 'd1',
  type: 'stable',
  link_type: 1,
  protocol: 1,
  airport_name: 'Pier nest',
  uav_name: 'Pier UAV',
  sn_id: 'NEST-1',
  uav_sn: 'UAV-1',
  address: 'Pier 3',
  uav_model: 'M30',
  description: 'Harbour',
  azimuth: 90,
  altn_point: { lat: 22.541, lng: 114.051 },
  airport_point: { lat: 22.54, lng: 114.05 },
  beacon: { lat: 22.5401, lng: 114.0501, height: 12.5 },
  company: 'wk',
  state: 2,
  enabled: true,
  create_time: 1_700_000_000,
};

/** What the server's form parser makes of the fields, after the browser turned them into text. */
const asSent = (name: 'deviceAdd' | 'deviceEdit', fields: Record<string, unknown>) =>
  calls[name].fields.parse(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])));

describe('device form <-> /device/add and /device/edit fields', () => {
  it('round-trips a stored nest: every field reaches the call as the registry parses it', () => {
    const fields = callFieldsOf(formFromDevice(nest), nest.id);
    const parsed = asSent('deviceEdit', fields);
    expect(parsed).toEqual({
      id: 'd1',
      type: 'stable',
      link_type: 1,
      airport_name: 'Pier nest',
      uav_name: 'Pier UAV',
      sn_id: 'NEST-1',
      uav_sn: 'UAV-1',
      address: 'Pier 3',
      uav_model: 'M30',
      description: 'Harbour',
      azimuth: 90,
      altn_point: { lat: 22.541, lng: 114.051 },
      airport_point: { lat: 22.54, lng: 114.05 },
      beacon: { lat: 22.5401, lng: 114.0501, height: 12.5 },
      company: 'wk',
    });
  });

  it('sends empty optional fields as empty (an edit replaces the whole device) and azimuth not set as -1', () => {
    const v: DeviceFormValues = { ...emptyForm(), sn_id: ' N-2 ', uav_name: ' Drone ', airport_name: 'Nest', airport_point: { lat: 1, lng: 2 } };
    const fields = callFieldsOf(v);
    expect(fields).toMatchObject({ sn_id: 'N-2', uav_name: 'Drone', azimuth: -1, altn_point: '', beacon: '', address: '', company: '' });
    const parsed = asSent('deviceAdd', fields);
    expect(parsed).toMatchObject({ azimuth: -1, link_type: 1, airport_point: { lat: 1, lng: 2 } });
    expect(parsed.altn_point).toBeUndefined();
    expect(parsed.beacon).toBeUndefined();
    expect(parsed.company).toBeUndefined();
  });

  it('a single-soldier drone sends no nest fields, even when they were filled before the type changed', () => {
    const v = withType(formFromDevice(nest), 'alone');
    expect(v).toMatchObject({ airport_name: '', altn_point: null, azimuth: null, link_type: 3, beacon: { lat: null, lng: null, height: null } });
    // Its take-off place stays.
    expect(v.airport_point).toEqual(nest.airport_point);
    const fields = callFieldsOf({ ...v, airport_name: 'stale', azimuth: 10, altn_point: { lat: 1, lng: 1 } });
    expect(fields).toMatchObject({ type: 'alone', airport_name: '', azimuth: -1, altn_point: '', beacon: '' });
  });

  it('a partly filled beacon is not sent', () => {
    const v = { ...formFromDevice(nest), beacon: { lat: 22.5, lng: null, height: 3 } };
    expect(callFieldsOf(v).beacon).toBe('');
    expect(formIssues(v).beacon).toBe('beaconPartial');
  });
});

describe('form rules mirror the registry and the server', () => {
  const ok = formFromDevice(nest);

  it('accepts a complete nest', () => {
    expect(formIssues(ok)).toEqual({});
  });

  it('checks SNs against SN_PATTERN and the server name', () => {
    expect(formIssues({ ...ok, sn_id: '' }).sn_id).toBe('required');
    expect(formIssues({ ...ok, sn_id: 'a b' }).sn_id).toBe('snPattern');
    expect(formIssues({ ...ok, sn_id: 'a/#' }).sn_id).toBe('snPattern');
    expect(formIssues({ ...ok, sn_id: 'x'.repeat(65) }).sn_id).toBe('snPattern');
    expect(formIssues({ ...ok, sn_id: 'nest-server' }).sn_id).toBe('serverName');
    expect(formIssues({ ...ok, uav_sn: 'u+1' }).uav_sn).toBe('snPattern');
    expect(formIssues({ ...ok, uav_sn: '' }).uav_sn).toBeUndefined();
  });

  it('azimuth: not set, -1 or 0 to 360', () => {
    for (const azimuth of [null, -1, 0, 180.5, 360]) expect(formIssues({ ...ok, azimuth }).azimuth).toBeUndefined();
    for (const azimuth of [-0.5, 360.1, -2]) expect(formIssues({ ...ok, azimuth }).azimuth).toBe('azimuth');
  });

  it('latitudes and longitudes in range', () => {
    expect(formIssues({ ...ok, altn_point: { lat: 91, lng: 0 } }).altn_point).toBe('lat');
    expect(formIssues({ ...ok, airport_point: { lat: 0, lng: -181 } }).airport_point).toBe('lng');
    expect(formIssues({ ...ok, beacon: { lat: -90.5, lng: 0, height: 1 } })['beacon.lat']).toBe('lat');
  });

  it('a nest needs its airport name and coordinate; a single-soldier drone has no nest-side link', () => {
    expect(formIssues({ ...ok, airport_name: ' ' }).airport_name).toBe('required');
    expect(formIssues({ ...ok, airport_point: null }).airport_point).toBe('nestPoint');
    const alone = withType(ok, 'alone');
    expect(formIssues({ ...alone, airport_point: null })).toEqual({});
    expect(formIssues({ ...alone, link_type: 1 }).link_type).toBe('aloneLink');
    expect(formIssues({ ...ok, uav_name: '' }).uav_name).toBe('required');
  });
});

describe('row actions', () => {
  const item: DeviceListItem = { ...nest, name: 'Pier nest', is_push_on: true, connected_by: null, position: null, stream_uav_list: [] };

  it('someone else holding the device blocks every change; the holder is free', () => {
    const live = liveOf(item, { state: 3, connectedBy: { u_id: 'u2', nick: 'Bob' } });
    expect(blockOf(item, live, 'u1', 'edit')).toEqual({ kind: 'held', nick: 'Bob' });
    expect(blockOf(item, live, 'u1', 'enable')).toEqual({ kind: 'held', nick: 'Bob' });
    expect(blockOf(item, live, 'u2', 'delete')).toBeNull();
  });

  it('a disabled device can only be enabled; a shared one not touched', () => {
    const off = { ...item, enabled: false };
    expect(blockOf(off, liveOf(off, undefined), 'u1', 'edit')).toEqual({ kind: 'disabled' });
    expect(blockOf(off, liveOf(off, undefined), 'u1', 'enable')).toBeNull();
    const shared = { ...item, shared: true };
    expect(blockOf(shared, liveOf(shared, undefined), 'u1', 'enable')).toEqual({ kind: 'shared' });
  });

  it('the live fleet state wins over the listed one', () => {
    expect(liveOf(item, { state: 1, connectedBy: null }).state).toBe(1);
    expect(liveOf(item, undefined).state).toBe(2);
  });
});
