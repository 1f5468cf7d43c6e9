import { describe, expect, it } from 'vitest';
import type { DeviceListItem, FleetEntry } from '@nest/contracts';
import { applyFleetUpdate, applyStatus, applyTelemetry, fleetCounts, filterDevices, fromListItem, holderOf, markMine, mergeList, readAllPages, typeOptions, unknownSns } from './fleet';

const item = (sn: string, extra: Partial<DeviceListItem> = {}): DeviceListItem => ({
  id: sn,
  type: 'stable',
  link_type: 1,
  protocol: 1,
  airport_name: `Airport ${sn}`,
  uav_name: `Drone ${sn}`,
  sn_id: sn,
  uav_sn: `${sn}-UAV`,
  address: 'Nanshan',
  uav_model: 'M1',
  description: '',
  azimuth: -1,
  altn_point: null,
  airport_point: null,
  beacon: null,
  company: 'wk',
  state: 1,
  enabled: true,
  create_time: 0,
  name: `Nest ${sn}`,
  is_push_on: true,
  connected_by: null,
  position: { lat: 22.5, lng: 114 },
  stream_uav_list: [`/live/${sn}/index.m3u8`],
  ...extra,
});
const entry = (sn: string, extra: Partial<FleetEntry> = {}): FleetEntry => ({
  sn_id: sn,
  state: 1,
  lat: 22.6,
  lng: 114.1,
  heading: 45,
  flight_state: 2,
  battery: 80,
  height: 100,
  ...extra,
});

describe('device list merging of live updates', () => {
  it('maps a list row to what the screen shows', () => {
    const d = fromListItem(item('N1'));
    expect(d).toMatchObject({ sn: 'N1', name: 'Nest N1', state: 1, kind: 10, streamUrl: '/live/N1/index.m3u8', drone: false });
    expect(fromListItem(item('A1', { type: 'alone', name: '', stream_uav_list: [] }))).toMatchObject({ kind: 200, drone: true, streamUrl: null, name: 'Airport A1' });
  });

  it('applies 310 batches to known devices only and reports unknown ones', () => {
    const list = [fromListItem(item('N1')), fromListItem(item('N2'))];
    const next = applyFleetUpdate(list, [entry('N1', { state: 3 }), entry('X9')], 1000);
    expect(next[0]).toMatchObject({ state: 3, position: { lat: 22.6, lng: 114.1 }, heading: 45, flightState: 2, battery: 80, updatedAt: 1000 });
    expect(next[1]).toBe(list[1]);
    expect(unknownSns(list, [entry('N1'), entry('X9')])).toEqual(['X9']);
    expect(applyFleetUpdate(list, [entry('X9')])).toBe(list);
  });

  it('keeps the devices a 310 batch does not change, and the list when it changes none', () => {
    const list = [fromListItem(item('N1')), fromListItem(item('N2'))];
    const first = applyFleetUpdate(list, [entry('N1'), entry('N2')], 1000);
    // The same positions and states again (a fleet standing still): nothing new to render.
    expect(applyFleetUpdate(first, [entry('N1'), entry('N2')], 2000)).toBe(first);
    const moved = applyFleetUpdate(first, [entry('N1'), entry('N2', { lat: 22.7 })], 3000);
    expect(moved).not.toBe(first);
    expect(moved[0]).toBe(first[0]);
    expect(moved[1]).toMatchObject({ position: { lat: 22.7, lng: 114.1 }, updatedAt: 3000 });
    // A device only listed so far takes its first batch even when the figures match the list's.
    const listed = [fromListItem(item('N3', { position: { lat: 22.6, lng: 114.1 } }))];
    expect(applyFleetUpdate(listed, [entry('N3')], 4000)[0]).toMatchObject({ updatedAt: 4000, heading: 45 });
  });

  it('reads every page of the list, the first one given, the others side by side, each device once', async () => {
    const items = Array.from({ length: 5 }, (_, i) => item(`N${i}`));
    const page = (n: number, size: number) => ({ list: items.slice(n * size, (n + 1) * size), total: items.length });
    const asked: number[] = [];
    const all = await readAllPages(Promise.resolve(page(0, 2)), 2, async (n) => {
      asked.push(n);
      // Page 2 repeats N3 (it moved between the reads of pages 1 and 2).
      return n === 2 ? { list: [items[3]!, items[4]!], total: 5 } : page(n, 2);
    });
    expect(asked.sort()).toEqual([1, 2]);
    expect(all.map((d) => d.sn_id)).toEqual(['N0', 'N1', 'N2', 'N3', 'N4']);
    // One page holds everything: nothing more is read.
    const none = async () => {
      throw new Error('not asked');
    };
    expect((await readAllPages(Promise.resolve(page(0, 10)), 10, none)).length).toBe(5);
    expect(await readAllPages(Promise.resolve(null), 10, none)).toEqual([]);
  });

  it('applies 301 statuses with who holds control', () => {
    const list = [fromListItem(item('N1'))];
    const next = applyStatus(list, { sn_id: 'N1', state: 3, connected_by: { u_id: 'u2', nick: 'Li' } });
    expect(next[0]).toMatchObject({ state: 3, connectedBy: { nick: 'Li' } });
    expect(applyStatus(list, { sn_id: 'nope', state: 2, connected_by: null })).toBe(list);
  });

  it('applies 300 telemetry: the drone position while flying, else the nest position', () => {
    const list = [fromListItem(item('N1'))];
    const nest = { lat: 1, lng: 2 } as never;
    const flying = applyTelemetry(list, 'N1', 1, { nest, drone: { lat: 3, lng: 4, flight_state: 2, heading: 10, height: 50, battery: { percent: 70 } } as never });
    expect(flying[0]).toMatchObject({ position: { lat: 3, lng: 4 }, flightState: 2, heading: 10, battery: 70 });
    const parked = applyTelemetry(list, 'N1', 1, { nest, drone: { lat: 3, lng: 4, flight_state: 4, heading: 10, height: 0, battery: { percent: 70 } } as never });
    expect(parked[0]!.position).toEqual({ lat: 1, lng: 2 });
  });

  it('a reloaded list keeps live fields and drops devices that are gone', () => {
    const live = applyFleetUpdate([fromListItem(item('N1')), fromListItem(item('N2'))], [entry('N1')], 5);
    const merged = mergeList(live, [item('N1', { state: 2, name: 'Renamed' })]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ name: 'Renamed', state: 2, heading: 45, position: { lat: 22.6, lng: 114.1 }, updatedAt: 5 });
  });
});

describe('device list filtering and counts', () => {
  const list = [
    fromListItem(item('SIM-STABLE-01')),
    fromListItem(item('SIM-MINI-01', { type: 'stable_mini', state: 2 })),
    fromListItem(item('SIM-ALONE-01', { type: 'alone', name: '单兵一号', state: 3 })),
  ];
  it('filters by search text in name or SN, any case', () => {
    expect(filterDevices(list, { search: 'alone', kind: 0 }).map((d) => d.sn)).toEqual(['SIM-ALONE-01']);
    expect(filterDevices(list, { search: '单兵', kind: 0 }).map((d) => d.sn)).toEqual(['SIM-ALONE-01']);
    expect(filterDevices(list, { search: '  ', kind: 0 })).toHaveLength(3);
    expect(filterDevices(list, { search: 'zzz', kind: 0 })).toHaveLength(0);
  });
  it('filters by device kind (0 all)', () => {
    expect(filterDevices(list, { search: '', kind: 10 }).map((d) => d.sn)).toEqual(['SIM-STABLE-01', 'SIM-MINI-01']);
    expect(filterDevices(list, { search: '', kind: 200 }).map((d) => d.sn)).toEqual(['SIM-ALONE-01']);
    expect(filterDevices(list, { search: 'mini', kind: 200 })).toHaveLength(0);
  });
  it('counts online (1 and 3) of all', () => {
    expect(fleetCounts(list)).toEqual({ online: 2, total: 3 });
  });
  it('type options from /device/uav/type, enabled and de-duplicated', () => {
    expect(
      typeOptions([
        { cla_type: 10, cla_name: 'Fixed', state: 10 },
        { cla_type: 10, cla_name: 'Fixed mini', state: 10 },
        { cla_type: 200, cla_name: 'Alone', state: 10 },
        { cla_type: 100, cla_name: 'Mobile', state: 20 },
        null,
      ]),
    ).toEqual([
      { value: 10, label: 'Fixed' },
      { value: 200, label: 'Alone' },
    ]);
    expect(typeOptions(null)).toEqual([]);
  });
});

describe('who holds a device', () => {
  it('tells the signed-in user from someone else, from the list row and from a 301 status', () => {
    const held = fromListItem(item('N1', { state: 3, connected_by: { u_id: 'me', nick: 'Me' } }));
    expect(holderOf(held, 'me')).toEqual({ mine: true });
    expect(holderOf(held, 'other')).toEqual({ mine: false, nick: 'Me' });
    expect(holderOf({ state: 3, connectedBy: null }, 'me')).toEqual({ mine: false, nick: null });
    expect(holderOf({ state: 1, connectedBy: { u_id: 'me', nick: 'Me' } }, 'me')).toBeNull();
    const free = fromListItem(item('N2'));
    const marked = markMine([held, free], 'me');
    expect(marked.map((d) => !!d.mine)).toEqual([true, false]);
    expect(marked[1]).toBe(free);
    // Taken over by someone else (301): no longer mine.
    const taken = applyStatus(marked, { sn_id: 'N1', state: 3, connected_by: { u_id: 'bob', nick: 'Bob' } });
    expect(markMine(taken, 'me')[0]!.mine).toBe(false);
  });
});
