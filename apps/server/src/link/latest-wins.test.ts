// Database: SQLite only: the telemetry inbox alone, no database.
/**
 * The latest-wins telemetry inbox (latest-wins.ts): nothing is superseded while messages are read before the
 * next of their device arrives; when several of one device wait, only the newest is read, in the order the
 * devices first arrived; reading goes in slices, and after() waits for what was taken in before it.
 */
import { describe, expect, it } from 'vitest';
import { LatestWins } from './latest-wins.js';

/** One turn of the event loop: the inbox reads on setImmediate. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const msg = (s: string) => Buffer.from(s);

function inbox(sliceMs?: number) {
  const read: string[] = [];
  const box = new LatestWins((topic, payload) => read.push(`${topic}=${payload.toString()}`), undefined, sliceMs);
  return { box, read };
}

describe('latest-wins inbox', () => {
  it('reads every message, superseding none, while each is read before the next of its device arrives', async () => {
    const { box, read } = inbox();
    for (let i = 1; i <= 3; i++) {
      box.offer('a', msg(`${i}`));
      box.offer('b', msg(`${i}`));
      await turn();
    }
    expect(read).toEqual(['a=1', 'b=1', 'a=2', 'b=2', 'a=3', 'b=3']);
    expect(box.counts.superseded).toBe(0);
    expect(box.size).toBe(0);
  });

  it('reads at once while the turn has time left and nothing waits', async () => {
    const { box, read } = inbox();
    box.offer('a', msg('1'));
    box.offer('a', msg('2'));
    expect(read).toEqual(['a=1', 'a=2']);
    expect(box.size).toBe(0);
    expect(box.counts.superseded).toBe(0);
  });

  it('reads only the newest waiting message of a device, devices in the order they first arrived', async () => {
    // A slice of 0 ms: nothing is read at once, everything waits for the next turn.
    const { box, read } = inbox(0);
    box.offer('a', msg('1'));
    box.offer('b', msg('1'));
    box.offer('a', msg('2'));
    box.offer('c', msg('1'));
    box.offer('a', msg('3'));
    box.offer('b', msg('2'));
    expect(box.size).toBe(3);
    while (box.size > 0) await turn();
    expect(read).toEqual(['a=3', 'b=2', 'c=1']);
    expect(box.counts.superseded).toBe(3);
  });

  it('reads in slices; a message arriving between slices supersedes only one still waiting; after() waits for what came before it', async () => {
    // A slice of 0 ms: nothing is read at once, and each turn reads one message.
    const { box, read } = inbox(0);
    for (let i = 0; i < 40; i++) box.offer(`d${i}`, msg('old'));
    let afterFirst = -1;
    box.after(() => (afterFirst = read.length));
    await turn();
    expect(read).toHaveLength(1);
    expect(afterFirst).toBe(-1);
    // d39 is still waiting: superseded. d0 was read: its new message waits behind the others.
    box.offer('d39', msg('new'));
    box.offer('d0', msg('new'));
    let afterSecond = -1;
    box.after(() => (afterSecond = read.length));
    expect(box.counts.superseded).toBe(1);
    while (box.size > 0) await turn();
    expect(read).toHaveLength(41);
    expect(read.slice(-2)).toEqual(['d39=new', 'd0=new']);
    // Called once the 40 first messages were read, before d0's new one; the second once all were.
    expect(afterFirst).toBe(40);
    expect(afterSecond).toBe(41);
  });

  it('calls after() at once when nothing waits, and forgets what waits when cleared', async () => {
    const { box, read } = inbox(0);
    let called = 0;
    box.after(() => called++);
    expect(called).toBe(1);
    box.offer('a', msg('1'));
    box.after(() => called++);
    box.clear();
    await turn();
    expect(read).toEqual([]);
    expect(called).toBe(1);
  });
});
