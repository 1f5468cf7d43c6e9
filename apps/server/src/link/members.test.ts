import { describe, expect, it } from 'vitest';
import { ClusterMembers, MEMBER_EXPIRY_MS } from './members.js';

const SNS = Array.from({ length: 600 }, (_, i) => `SN-${i}`);

/** Three instances that have heard of each other. */
function trio(now = 0) {
  const ids = ['nest-server-a', 'nest-server-b', 'nest-server-c'];
  const views = ids.map((id) => new ClusterMembers(id));
  for (const v of views) for (const id of ids) v.announce(id, now);
  return { ids, views };
}

describe('cluster members', () => {
  it('alone, an instance owns every device', () => {
    const m = new ClusterMembers('nest-server-a');
    expect(SNS.every((sn) => m.owns(sn))).toBe(true);
  });

  it('every instance computes the same owner, and exactly one instance owns each device', () => {
    const { ids, views } = trio();
    for (const sn of SNS) {
      const owners = views.map((v) => v.owner(sn));
      expect(new Set(owners).size).toBe(1);
      expect(views.filter((v) => v.owns(sn))).toHaveLength(1);
    }
    // The devices spread over the members (600 devices: each gets far more than a few).
    const counts = ids.map((id) => SNS.filter((sn) => views[0]!.owner(sn) === id).length);
    for (const c of counts) expect(c).toBeGreaterThan(120);
  });

  it('when a member leaves, only its devices move, and they move to the others', () => {
    const { ids, views } = trio();
    const before = new Map(SNS.map((sn) => [sn, views[0]!.owner(sn)]));
    expect(views[0]!.leave(ids[2]!)).toBe(true);
    for (const sn of SNS) {
      const now = views[0]!.owner(sn);
      if (before.get(sn) !== ids[2]) expect(now).toBe(before.get(sn));
      else expect(now).not.toBe(ids[2]);
    }
  });

  it('forgets a member not heard for the expiry time, and keeps one heard since', () => {
    const m = new ClusterMembers('nest-server-a');
    m.announce('nest-server-b', 0);
    m.announce('nest-server-c', 0);
    m.announce('nest-server-c', MEMBER_EXPIRY_MS - 1);
    expect(m.expire(MEMBER_EXPIRY_MS + 1)).toEqual(['nest-server-b']);
    expect(m.list()).toEqual(['nest-server-a', 'nest-server-c']);
    // Itself it never forgets.
    expect(m.expire(Number.MAX_SAFE_INTEGER - 1)).toEqual(['nest-server-c']);
    expect(m.list()).toEqual(['nest-server-a']);
  });

  it('ignores announcements that are not member ids, and cannot be told to leave itself', () => {
    const m = new ClusterMembers('nest-server-a');
    expect(m.announce('bad/id', 0)).toBe(false);
    expect(m.announce('#', 0)).toBe(false);
    expect(m.announce('x'.repeat(65), 0)).toBe(false);
    expect(m.leave('nest-server-a')).toBe(false);
    expect(m.list()).toEqual(['nest-server-a']);
  });

  it('answers whether the member set changed', () => {
    const m = new ClusterMembers('nest-server-a');
    expect(m.announce('nest-server-b', 0)).toBe(true);
    expect(m.announce('nest-server-b', 1)).toBe(false);
    expect(m.leave('nest-server-b')).toBe(true);
    expect(m.leave('nest-server-b')).toBe(false);
  });
});
