import { EventEmitter } from 'node:events';
import { deviceListItemSchema, pageOf, type DeviceListItem, type Lang } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import type { DeviceRow } from '../db/schema.js';
import { DeviceListIndex, type ListQuery } from './list.js';
import type { Holder } from './status.js';

/**
 * The device list's index over a directory, link and status board in memory: the order (online first, by
 * name, by sn), what makes it change (presence, a directory load), the scope, and the answer's JSON text.
 */

const row = (sn: string, name: string, more: Partial<DeviceRow> = {}): DeviceRow => ({
  id: `id-${sn}`,
  type: 'stable',
  link_type: 3,
  protocol: 1,
  secret_gen: 0,
  airport_name: name,
  uav_name: `UAV ${sn}`,
  sn_id: sn,
  uav_sn: `${sn}-UAV`,
  address: '',
  uav_model: '',
  description: '',
  azimuth: -1,
  altn_lat: null,
  altn_lng: null,
  airport_lat: 22.5,
  airport_lng: 114,
  beacon: null,
  company_id: 'wk',
  enabled: 1,
  state: 1,
  created_at: 1_700_000_000,
  updated_at: 1_700_000_000,
  ...more,
});

/** A directory whose `load` replaces every row object, as a reload from the database does. */
class Directory {
  generation = 0;
  private bySn = new Map<string, DeviceRow>();
  load(rows: DeviceRow[]): void {
    this.bySn = new Map(rows.map((r) => [r.sn_id, { ...r }]));
    this.generation++;
  }
  all() {
    return this.bySn.values();
  }
  get(sn: string) {
    return this.bySn.get(sn);
  }
}

function setup(rows: DeviceRow[]) {
  const directory = new Directory();
  directory.load(rows);
  const online = new Set<string>();
  const telemetry = new Map<string, unknown>();
  const link = Object.assign(new EventEmitter(), {
    isOnline: (sn: string) => online.has(sn),
    device: (sn: string) => (online.has(sn) ? { online: true, telemetry: telemetry.get(sn) ?? null } : undefined),
  });
  const holders = new Map<string, Holder>();
  const status = { holder: (sn: string) => holders.get(sn) ?? null };
  let signed = 0;
  let expiry = 100;
  const links = {
    media: (url: string) => url,
    live: (base: string, sn: string) => {
      signed++;
      return `${base}/${expiry}.sig/${sn}/index.m3u8`;
    },
  };
  const index = new DeviceListIndex(directory as never, link as never, status as never);
  const setOnline = (sn: string, on: boolean) => {
    if (on) online.add(sn);
    else online.delete(sn);
    link.emit('online', sn, on);
  };
  const query = (q: Partial<ListQuery> = {}): ListQuery => ({ scope: { companyId: 'wk', all: false }, categories: 'all', terms: null, lang: 'en', ...q });
  const page = (q: Partial<ListQuery> = {}, n = 0, size = 200) => {
    const answer = index.page(query(q), n, size, links, '/live');
    const text = answer.json;
    return { answer, text, data: pageOf(deviceListItemSchema).parse(JSON.parse(text)) as { list: DeviceListItem[]; total: number } };
  };
  return {
    directory,
    setOnline,
    telemetry,
    holders,
    page,
    sns: (q: Partial<ListQuery> = {}) => page(q).data.list.map((d) => d.sn_id),
    signatures: () => signed,
    nextExpiry: () => expiry++,
  };
}

describe('device list index', () => {
  it('orders online devices first, each group by name and then sn, and re-orders when a presence changes', () => {
    const t = setup([row('D1', 'Charlie'), row('D2', 'alpha'), row('D3', 'Bravo'), row('D4', 'Bravo')]);
    expect(t.sns()).toEqual(['D2', 'D3', 'D4', 'D1']);
    t.setOnline('D1', true);
    expect(t.sns()).toEqual(['D1', 'D2', 'D3', 'D4']);
    t.setOnline('D4', true);
    expect(t.sns()).toEqual(['D4', 'D1', 'D2', 'D3']);
    t.setOnline('D1', false);
    expect(t.sns()).toEqual(['D4', 'D2', 'D3', 'D1']);
    const second = t.page({}, 1, 3).data;
    expect(second).toMatchObject({ total: 4 });
    expect(second.list.map((d) => d.sn_id)).toEqual(['D1']);
    expect(t.page({}, 5, 3).data).toEqual({ list: [], total: 4 });
  });

  it('sorts by the collation of the caller language', () => {
    const t = setup([row('Z1', '北京'), row('Z2', '阿里'), row('Z3', 'Zulu'), row('Z4', 'apple')]);
    // Han after Latin in English, in code point order there: 北 (U+5317) before 阿 (U+963F).
    expect(t.sns({ lang: 'en' })).toEqual(['Z4', 'Z3', 'Z1', 'Z2']);
    // Han first in Chinese, in pinyin order: 阿 (a) before 北 (bei).
    expect(t.sns({ lang: 'zh' })).toEqual(['Z2', 'Z1', 'Z4', 'Z3']);
  });

  it('answers what the directory holds after each load: new names re-sort, other changes show in the same order', () => {
    const rows = [row('R1', 'One'), row('R2', 'Two'), row('R3', 'Three')];
    const t = setup(rows);
    expect(t.sns()).toEqual(['R1', 'R3', 'R2']);
    t.directory.load([row('R1', 'One', { description: 'edited' }), rows[1]!, rows[2]!]);
    expect(t.page().data.list[0]).toMatchObject({ sn_id: 'R1', description: 'edited' });
    t.directory.load([row('R1', 'Zero'), row('R2', 'Two', { type: 'mobile' }), rows[2]!, row('R4', 'Four')]);
    expect(t.sns()).toEqual(['R4', 'R3', 'R2', 'R1']);
    expect(t.sns({ categories: ['mobile'] })).toEqual(['R2']);
    t.directory.load([rows[2]!]);
    expect(t.page().data).toMatchObject({ total: 1, list: [{ sn_id: 'R3' }] });
  });

  it("answers the scope's company, every company for all, and shared devices marked shared", () => {
    const t = setup([row('W1', 'A'), row('G1', 'B', { company_id: 'gz' }), row('G2', 'C', { company_id: 'gz' })]);
    expect(t.sns()).toEqual(['W1']);
    expect(t.sns({ scope: { companyId: 'wk', all: true } })).toEqual(['W1', 'G1', 'G2']);
    const shared = t.page({ scope: { companyId: 'wk', all: false, shared: new Set(['G2']) } }).data.list;
    expect(shared.map((d) => [d.sn_id, d.shared])).toEqual([
      ['W1', undefined],
      ['G2', true],
    ]);
  });

  it('searches the sn, drone sn, names and address for any of the terms', () => {
    const t = setup([row('S1', 'North gate', { address: 'Harbour road' }), row('S2', 'South', { uav_name: 'Eagle' }), row('S3', 'East')]);
    expect(t.sns({ terms: ['harbour'] })).toEqual(['S1']);
    expect(t.sns({ terms: ['eagle', 'east'] })).toEqual(['S3', 'S2']);
    expect(t.sns({ terms: ['s2-uav'] })).toEqual(['S2']);
    expect(t.sns({ terms: ['nothing'] })).toEqual([]);
  });

  it('answers the JSON of the items in the answer key order, with the live state and catalogue texts in the language', () => {
    const t = setup([row('J1', '机场 A01', { beacon: null }), row('J2', 'Typed "quoted" name', { company_id: 'gz' })]);
    t.setOnline('J1', true);
    t.telemetry.set('J1', { nest: { lat: 22.51, lng: 114.02 }, drone: null });
    t.holders.set('J1', { u_id: 'u1', nick: 'Pilot', since: 1, renewedAt: Date.now() });
    const keys = [
      'id', 'type', 'link_type', 'protocol', 'airport_name', 'uav_name', 'sn_id', 'uav_sn', 'address', 'uav_model', 'description',
      'azimuth', 'altn_point', 'airport_point', 'beacon', 'company', 'state', 'enabled', 'create_time', 'name', 'is_push_on',
      'connected_by', 'position', 'stream_uav_list',
    ];
    for (const lang of ['en', 'zh'] as Lang[]) {
      const { text, data } = t.page({ lang, scope: { companyId: 'wk', all: false, shared: new Set(['J2']) } });
      expect(text).toBe(JSON.stringify(JSON.parse(text)));
      const [j1, j2] = data.list;
      expect(Object.keys(j1!)).toEqual(keys);
      expect(Object.keys(j2!)).toEqual([...keys, 'shared']);
      expect(j1).toMatchObject({
        name: lang === 'en' ? 'Nest A01' : '机场 A01',
        airport_name: lang === 'en' ? 'Nest A01' : '机场 A01',
        state: 3,
        is_push_on: true,
        connected_by: { u_id: 'u1', nick: 'Pilot' },
        position: { lat: 22.51, lng: 114.02 },
        stream_uav_list: ['/live/100.sig/J1/index.m3u8'],
      });
      expect(j2).toMatchObject({ name: 'Typed "quoted" name', state: 2, is_push_on: false, connected_by: null, position: { lat: 22.5, lng: 114 }, stream_uav_list: [] });
    }
  });

  it('answers an unchanged page with the same answer, and a new one as soon as a presence, holder or position changes', () => {
    const t = setup([row('M1', 'A'), row('M2', 'B')]);
    t.setOnline('M1', true);
    t.telemetry.set('M1', { nest: { lat: 22.51, lng: 114.02 }, drone: null });
    const first = t.page();
    // A new telemetry message with the same position (a nest on the ground) changes nothing.
    t.telemetry.set('M1', { nest: { lat: 22.51, lng: 114.02 }, drone: null });
    expect(t.page().answer).toBe(first.answer);
    t.telemetry.set('M1', { nest: { lat: 22.52, lng: 114.02 }, drone: null });
    const moved = t.page();
    expect(moved.answer).not.toBe(first.answer);
    expect(moved.data.list[0]).toMatchObject({ sn_id: 'M1', position: { lat: 22.52, lng: 114.02 } });
    t.holders.set('M1', { u_id: 'u1', nick: 'Pilot', since: 1, renewedAt: Date.now() });
    expect(t.page().data.list[0]).toMatchObject({ state: 3, connected_by: { u_id: 'u1', nick: 'Pilot' } });
    t.holders.set('M1', { u_id: 'u1', nick: 'Renamed', since: 1, renewedAt: Date.now() });
    expect(t.page().data.list[0]!.connected_by).toEqual({ u_id: 'u1', nick: 'Renamed' });
    t.holders.delete('M1');
    t.setOnline('M2', true);
    expect(t.page().data.list.map((d) => [d.sn_id, d.state, d.connected_by, d.stream_uav_list.length])).toEqual([
      ['M1', 1, null, 1],
      ['M2', 1, null, 1],
    ]);
    t.setOnline('M1', false);
    expect(t.page().data.list.map((d) => [d.sn_id, d.state, d.is_push_on, d.stream_uav_list.length])).toEqual([
      ['M2', 1, true, 1],
      ['M1', 2, false, 0],
    ]);
    // Another page size of the same query is its own answer.
    expect(t.page({}, 0, 1).data).toMatchObject({ total: 2, list: [{ sn_id: 'M2' }] });
  });

  it('signs a live URL once per device while the signer answers the same expiry, and again after it moved', () => {
    const t = setup([row('V1', 'A'), row('V2', 'B')]);
    t.setOnline('V1', true);
    t.setOnline('V2', true);
    t.page();
    const first = t.signatures();
    t.page();
    t.page();
    // One probe per answer, no device signed again.
    expect(t.signatures() - first).toBe(2);
    t.nextExpiry();
    expect(t.page().data.list.map((d) => d.stream_uav_list[0])).toEqual(['/live/101.sig/V1/index.m3u8', '/live/101.sig/V2/index.m3u8']);
  });
});
