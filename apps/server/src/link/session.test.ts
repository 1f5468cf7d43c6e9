// Database: SQLite only: the link adapters' MQTT session, no database.
/**
 * The adapters' shared MQTT session (session.ts) against a small aedes broker whose subscribe answer the
 * test decides: granted, refused (SUBACK 128), or held until the client is stopped.
 */
import net, { type AddressInfo } from 'node:net';
import { Aedes, type AuthorizeSubscribeHandler } from 'aedes';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkService } from './nest/service.js';
import { linkClient, subscribeEachSession } from './session.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A broker on a loopback port answering subscribes with `authorize`. */
async function broker(authorize: AuthorizeSubscribeHandler): Promise<string> {
  const aedes = await Aedes.createBroker({ authorizeSubscribe: authorize });
  const tcp = net.createServer((socket) => aedes.handle(socket));
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
  });
  return `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
}

const login = { clientId: 'nest-server-session-test', username: 'server', password: 'secret' };

describe('link session', () => {
  it('subscribes on connect: granted in full calls subscribed, a topic refused (SUBACK 128) calls refused', async () => {
    const url = await broker((_client, sub, callback) => callback(null, sub.topic === 'no/#' ? null : sub));
    for (const [topic, want] of [['yes/#', 'subscribed'], ['no/#', 'refused']] as const) {
      const client = linkClient(url, login);
      closers.push(() => client.endAsync(true));
      const seen: string[] = [];
      const outcome = await new Promise<string>((resolve) =>
        subscribeEachSession(client, {
          topics: () => ({ [topic]: { qos: 1 } }),
          began: () => seen.push('began'),
          subscribed: () => resolve('subscribed'),
          refused: () => resolve('refused'),
        }),
      );
      expect([...seen, outcome]).toEqual(['began', want]);
    }
  });

  it('a subscribe still in flight when the client is closed calls neither; the nest adapter logs nothing for it', async () => {
    let held!: () => void;
    const inFlight = new Promise<void>((resolve) => (held = resolve));
    const url = await broker(() => held());
    const client = linkClient(url, login);
    const calls: string[] = [];
    subscribeEachSession(client, { topics: () => ({ 'a/#': { qos: 1 } }), subscribed: () => calls.push('subscribed'), refused: () => calls.push('refused') });
    await inFlight;
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await client.endAsync(true);
    await closed;
    expect(calls).toEqual([]);

    const lines: string[] = [];
    const log = { info: (_: object, msg: string) => lines.push(msg), warn: (_: object, msg: string) => lines.push(msg), debug: () => undefined };
    let again!: () => void;
    const secondInFlight = new Promise<void>((resolve) => (again = resolve));
    const url2 = await broker(() => again());
    const link = new LinkService({ url: url2, username: 'server', password: 'secret', devices: { get: () => undefined, miss: () => undefined }, log });
    link.start();
    await secondInFlight;
    // The adapter's own client, to wait for its socket to close: a failed subscribe is called back then.
    const own = (link as unknown as { client: typeof client }).client;
    const ownClosed = new Promise<void>((resolve) => own.once('close', () => resolve()));
    await link.stop();
    await ownClosed;
    expect(lines.filter((l) => /refused/.test(l))).toEqual([]);
  });
});
