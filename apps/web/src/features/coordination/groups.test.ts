import { describe, expect, it } from 'vitest';
import { calls } from '@nest/contracts';
import { groupAddFields, groupEditFields, groupIssues, onlineCount } from './groups';

const asSent = (name: 'comAdd' | 'comEdit', fields: Record<string, unknown>) =>
  calls[name].fields.safeParse(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])));

describe('online devices', () => {
  it('counts live statuses (online and held) when the fleet knows every device', () => {
    const live = new Map([
      ['A', 1],
      ['B', 2],
      ['C', 3],
    ]);
    expect(onlineCount({ device_ids: ['A', 'B', 'C'], online_count: 0 }, (sn) => live.get(sn))).toBe(2);
    expect(onlineCount({ device_ids: ['B'], online_count: 1 }, (sn) => live.get(sn))).toBe(0);
  });

  it("falls back to the server's count while a device is unknown to the fleet", () => {
    expect(onlineCount({ device_ids: ['A', 'Z'], online_count: 2 }, (sn) => (sn === 'A' ? 2 : undefined))).toBe(2);
  });
});

describe('group form', () => {
  it('needs a name and at least one device (SPEC), limits lengths', () => {
    expect(groupIssues({ name: ' ', device_ids: [], user_ids: [], notes: '' })).toEqual(['name', 'devices']);
    expect(groupIssues({ name: 'x'.repeat(65), device_ids: ['A'], user_ids: [], notes: 'n'.repeat(501) })).toEqual(['nameLong', 'notesLong']);
    expect(groupIssues({ name: 'Patrol', device_ids: ['A'], user_ids: [], notes: '' })).toEqual([]);
  });

  it('builds fields the registry accepts; members only when the caller can pick them', () => {
    const form = { name: ' Patrol ', device_ids: ['A', 'B'], user_ids: ['u1'], notes: ' night ' };
    const add = groupAddFields(form, true);
    expect(add).toEqual({ name: 'Patrol', device_ids: '["A","B"]', user_ids: '["u1"]', notes: 'night' });
    expect(asSent('comAdd', add).data).toMatchObject({ name: 'Patrol', device_ids: ['A', 'B'], user_ids: ['u1'] });
    expect(asSent('comAdd', groupAddFields(form, false)).data).toMatchObject({ user_ids: [] });
    const edit = groupEditFields({ ...form, user_ids: [] }, 'g1', true);
    expect(asSent('comEdit', edit).data).toMatchObject({ id: 'g1', user_ids: [], state: 10 });
    const kept = groupEditFields(form, 'g1', false, 20);
    expect(kept).not.toHaveProperty('user_ids');
    expect(asSent('comEdit', kept).data).toMatchObject({ state: 20 });
    expect(asSent('comEdit', kept).data?.user_ids).toBeUndefined();
    expect(asSent('comAdd', groupAddFields({ ...form, device_ids: [] }, true)).success).toBe(false);
  });
});
