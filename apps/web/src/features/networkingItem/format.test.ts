import { describe, expect, it } from 'vitest';
import type { LinkDeviceStats } from '@nest/contracts';
import { LINK_DROP_REASONS } from '@nest/contracts';
import { networkEn, networkZh } from './messages';
import { ago, dropEntries, droppedTotal, filterDevices, formatRate, reasonKey } from './format';

const device = (over: Partial<LinkDeviceStats>): LinkDeviceStats => ({
  sn_id: 'SN-1',
  name: 'Nest One',
  link_type: 1,
  online: true,
  state: 1,
  heard_at: 0,
  since: 0,
  rate_hz: 1,
  telemetry_hz: 1,
  messages_per_min: 60,
  accepted: 100,
  dropped: {},
  rtt: null,
  command_timeouts: 0,
  firmware: null,
  ...over,
});

describe('network format', () => {
  it('says how long ago in seconds, minutes or hours', () => {
    expect(ago(10_000, 12_400)).toEqual({ unit: 's', n: 2 });
    expect(ago(0, 59_000)).toEqual({ unit: 's', n: 59 });
    expect(ago(0, 60_000)).toEqual({ unit: 'min', n: 1 });
    expect(ago(0, 3_599_000)).toEqual({ unit: 'min', n: 59 });
    expect(ago(0, 7_300_000)).toEqual({ unit: 'h', n: 2 });
    expect(ago(5_000, 1_000)).toEqual({ unit: 's', n: 0 });
  });

  it('rounds rates to one decimal', () => {
    expect(formatRate(5)).toBe('5');
    expect(formatRate(4.84)).toBe('4.8');
    expect(formatRate(0.05)).toBe('0.1');
  });

  it('lists non-zero drops in the fixed reason order and sums them', () => {
    const d = device({ dropped: { bad_data: 2, too_large: 1, error: 0 } });
    expect(dropEntries(d.dropped)).toEqual([
      ['too_large', 1],
      ['bad_data', 2],
    ]);
    expect(droppedTotal(d)).toBe(3);
  });

  it('filters by name or sn and by online', () => {
    const list = [device({}), device({ sn_id: 'SN-2', name: 'Hangar Two', online: false })];
    expect(filterDevices(list, 'hangar', false).map((d) => d.sn_id)).toEqual(['SN-2']);
    expect(filterDevices(list, 'sn-1', false).map((d) => d.sn_id)).toEqual(['SN-1']);
    expect(filterDevices(list, '', true).map((d) => d.sn_id)).toEqual(['SN-1']);
  });

  it('has a text for every drop reason in both languages', () => {
    for (const r of LINK_DROP_REASONS) {
      expect(networkZh.reason[reasonKey(r)], r).toBeTruthy();
      expect(networkEn.reason[reasonKey(r)], r).toBeTruthy();
    }
    expect(reasonKey('unmatched_reply')).toBe('unmatchedReply');
  });
});
