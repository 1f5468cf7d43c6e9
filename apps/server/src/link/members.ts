import { createHash } from 'node:crypto';

/** Root of one cluster's topics: members, and the notice bus (push/bus.ts). */
export const clusterTopicRoot = (cluster: string): string => `nest-server/v1/cluster/${cluster}`;
export const membersTopic = (cluster: string): string => `${clusterTopicRoot(cluster)}/members`;

/** An instance announces itself this often (retained, so a starting instance learns the others at once). */
export const MEMBER_HEARTBEAT_MS = 3_000;
/**
 * An instance not heard for this long is gone (its last will says so sooner). Devices re-send an
 * unacknowledged event every 5 s at first (docs/device-protocol.md), so the events of a dead instance's
 * devices are handled by their new owner within seconds of the takeover.
 */
export const MEMBER_EXPIRY_MS = 10_000;

/** A member id is the instance's MQTT client id: letters, digits, '-' and '_'. */
const MEMBER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Rendezvous weight of a device on a member: the first 48 bits of SHA-1(member "/" sn). */
function weight(member: string, sn: string): number {
  return createHash('sha1').update(`${member}/${sn}`).digest().readUIntBE(0, 6);
}

/**
 * The live server instances of a cluster and which one owns each device.
 *
 * Ownership is rendezvous (highest random weight) hashing of the device serial number over the live
 * members: every instance computes the same owner from the same member set, without talking, and when a
 * member comes or goes only the devices it gains or loses move. The owner handles (and acknowledges) the
 * device's events, so they are handled once and in the order the device sent them; the other instances
 * leave them unacknowledged. While the instances' views differ (a member just came or went), an event may
 * be handled twice (the rows it writes are keyed, so the second write changes nothing) or by nobody (the
 * device re-sends it, and it is handled once the views agree).
 */
export class ClusterMembers {
  /** Member id -> when it was last heard (ms, this instance's clock). */
  private readonly heard = new Map<string, number>();
  private readonly owners = new Map<string, string>();

  constructor(readonly self: string) {
    this.heard.set(self, Number.POSITIVE_INFINITY);
  }

  /** A member's announcement (a retained one included); answers whether the member set changed. */
  announce(id: string, now: number): boolean {
    if (!MEMBER_ID.test(id) || id === this.self) return false;
    const known = this.heard.has(id);
    this.heard.set(id, now);
    if (!known) this.owners.clear();
    return !known;
  }

  /** A member left (its empty retained announcement: a clean stop or its last will); answers whether it was known. */
  leave(id: string): boolean {
    if (id === this.self || !this.heard.delete(id)) return false;
    this.owners.clear();
    return true;
  }

  /** Forgets members not heard for MEMBER_EXPIRY_MS; answers those it forgot. */
  expire(now: number): string[] {
    const gone: string[] = [];
    for (const [id, at] of this.heard) if (now - at > MEMBER_EXPIRY_MS) gone.push(id);
    for (const id of gone) this.heard.delete(id);
    if (gone.length > 0) this.owners.clear();
    return gone;
  }

  /** The live members, this one included, sorted. */
  list(): string[] {
    return [...this.heard.keys()].sort();
  }

  /** The member that handles this device's events. */
  owner(sn: string): string {
    let owner = this.owners.get(sn);
    if (owner !== undefined) return owner;
    let best = -1;
    for (const id of this.heard.keys()) {
      const w = weight(id, sn);
      // Ties (astronomically rare) go to the smaller id, the same on every instance.
      if (w > best || (w === best && owner !== undefined && id < owner)) {
        best = w;
        owner = id;
      }
    }
    owner ??= this.self;
    if (this.owners.size > 100_000) this.owners.clear();
    this.owners.set(sn, owner);
    return owner;
  }

  owns(sn: string): boolean {
    return this.owner(sn) === this.self;
  }
}
