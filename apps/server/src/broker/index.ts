import net from 'node:net';
import { Duplex } from 'node:stream';
import {
  DeviceProtocol,
  LINK_MAX_MESSAGE_BYTES,
  SERVER_CLIENT_ID_PREFIX,
  SERVER_MQTT_USER,
  devicePublishAllowed,
  deviceSubscribeAllowed,
  isDeviceSn,
} from '@nest/contracts';
import { Aedes, type AedesPublishPacket, type AuthenticateError, type Client } from 'aedes';
import { samePassword, type DeviceLogin } from '../link/credentials.js';
import { djiPublishAllowed, djiSubscribeAllowed } from './dji.js';

/**
 * The embedded MQTT broker (aedes), started when MQTT_URL is unset. It listens on loopback only and
 * enforces the device-link rules itself (docs/device-protocol.md, "Broker"):
 * - authentication: the server user (`nest-server`) with its password, or user name = sn of a registered
 *   enabled device with its current password (link/credentials.ts: devicePassword for the nest protocol,
 *   djiPassword of its generation for a DJI gateway); everyone else is refused (CONNACK 4 / 5);
 * - a nest-protocol device may publish only on its own device -> server topics and subscribe only to its
 *   own server -> device topics (contracts devicePublishAllowed / deviceSubscribeAllowed); a DJI gateway
 *   only on its own DJI topics and its registered drone's osd/state (broker/dji.ts); a refused publish
 *   disconnects the device, a refused subscription gets a failure code;
 * - client ids starting with `nest-server-` are reserved for server instances; a nest-protocol device's
 *   client id must be its sn or start with `<sn>-`; a DJI gateway may use any other client id (the dock
 *   picks it), and no device may take a client id a connection of another user holds, so no client can
 *   take over another's session;
 * - no MQTT packet may exceed MAX_PACKET_BYTES: the connection is cut as soon as a larger one is announced;
 * - a client that stops reading holds up nobody: past SLOW_SUBSCRIBER_BYTES unsent it gets no more QoS-0
 *   messages (counted by slowDrops) until its socket has taken all but half of that.
 */
/**
 * Messages aedes delivers at once. Its default (100) was exhausted at 2,000 devices at 1 Hz
 * (bench/fleet-soak.ts): while a subscriber's socket waits for `drain` (the server's own link client when
 * its event loop is busy, a second full subscriber) each message holds a slot, the rest queue up, the
 * queue's O(n) shift() took an eighth of the server's CPU, and draining it recursively overflowed the stack
 * (RangeError in mqemitter `released`). Room for a few seconds of such a fleet.
 */
export const BROKER_CONCURRENCY = 10_000;

/** A connection that stopped reading (caughtUp false, dropped 0), or that caught up after losing `dropped` messages. */
export interface SlowClientEvent {
  clientId: string;
  /** The device's sn, or the kind of login ('server'). */
  user: string;
  caughtUp: boolean;
  dropped: number;
}

/** A running embedded broker, in this thread or in a thread of its own (thread.ts). */
export interface BrokerHandle {
  readonly host: string;
  readonly port: number;
  /**
   * Closes the connections of a device (logged in as user `sn`, whatever its client id). Whether it may log
   * in again is the login check's answer (BrokerAuth.checkDevice reads the registry).
   */
  disconnect(sn: string): Promise<void>;
  /** QoS-0 messages not sent to subscribers that had stopped reading (SLOW_SUBSCRIBER_BYTES), since the start. */
  slowDrops(): number;
  close(): Promise<void>;
}

/** The running broker in this thread; aedes itself stays inside this module. */
export interface EmbeddedBroker extends BrokerHandle {
  /**
   * A new MQTT connection to this broker in memory (the server's own link): the broker handles it like a
   * socket (same login, same rules), without the TCP stack and a system call per delivered message.
   */
  connectInProcess(): Duplex;
  /**
   * The messages published on topics matching `filter`, handed to `deliver` in this process as the broker
   * routes them (the server's own link: no MQTT packet written and read again). Ends with the function
   * it answers.
   */
  subscribeInProcess(filter: string, deliver: (topic: string, payload: Buffer) => void): () => void;
}

export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(
    readonly port: number,
    readonly host: string,
    readonly variable: string,
  ) {
    super(`Port ${port} on ${host} is already in use; set ${variable} to another port`);
  }
}

/** Who may connect: answers the identity of a client, or null to refuse it. */
export interface BrokerAuth {
  serverPassword: string;
  /**
   * A registered, enabled device `sn` whose current password is `password` (timing-safe): its protocol
   * and (DJI) drone sn, which decide its topics; null to refuse it.
   */
  checkDevice(sn: string, password: Buffer): Promise<DeviceLogin | null>;
}

/** Largest MQTT packet accepted: a link message plus room for the topic and headers. */
export const MAX_PACKET_BYTES = LINK_MAX_MESSAGE_BYTES + 1024;

/**
 * Bytes written to a client and not yet taken by its socket beyond which the broker stops sending it QoS-0
 * messages: they are dropped for that client alone, as Mosquitto drops them past its queue limits. aedes
 * finishes a publish only when every subscriber's socket has taken it, and reads nothing more from the
 * publisher meanwhile: one subscriber of every device's telemetry that stopped reading (a second server
 * instance whose event loop stands still, a consumer on a congested link) stopped every device's messages,
 * the server's own link went without them and took connected devices for offline; after
 * BROKER_CONCURRENCY such publishes every message waited in one queue, which drained recursively and
 * overflowed the stack when the subscriber left. QoS-0 messages are telemetry and live updates, superseded
 * by the next. About 0.6 s of a 10,000-device fleet's telemetry, 3 s of 2,000 devices'.
 */
export const SLOW_SUBSCRIBER_BYTES = 4 * 1024 * 1024;

/**
 * A socket's write buffer before a write reports it full (the point where aedes waits for its drain): room
 * for SLOW_SUBSCRIBER_BYTES and the message that crosses it, so that a QoS-0 delivery never waits. QoS-1
 * deliveries are kept beyond it and wait for the drain, as MQTT asks; a client that stops reading also
 * stops sending, and its keep-alive then ends the connection.
 */
const CLIENT_WRITE_BUFFER_BYTES = SLOW_SUBSCRIBER_BYTES + 2 * MAX_PACKET_BYTES;

/** MQTT CONNACK return codes. */
const IDENTIFIER_REJECTED = 2;
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

type Identity = { kind: 'server' } | { kind: 'device'; sn: string; dji: boolean; droneSn: string };
const identities = new WeakMap<Client, Identity>();

const refuse = (returnCode: number, message: string): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

/** `holder(clientId)`: the identity of the connection holding that client id now, if any. */
function authenticator(auth: BrokerAuth | null, holder: (clientId: string) => Identity | undefined) {
  return (
    client: Client,
    username: Readonly<string | undefined>,
    password: Readonly<Buffer | undefined>,
    done: (error: AuthenticateError | null, success: boolean | null) => void,
  ): void => {
    if (!username || !password || password.length === 0) {
      done(refuse(BAD_USERNAME_OR_PASSWORD, 'username and password required'), false);
      return;
    }
    if (!auth) {
      // Lifecycle-only broker (tests of the listener itself): any credentials, no rights.
      done(null, true);
      return;
    }
    const clientId = client.id ?? '';
    if (username === SERVER_MQTT_USER) {
      const ok = samePassword(password, auth.serverPassword);
      if (!ok) return done(refuse(BAD_USERNAME_OR_PASSWORD, 'bad server credentials'), false);
      if (!clientId.startsWith(SERVER_CLIENT_ID_PREFIX)) return done(refuse(IDENTIFIER_REJECTED, 'server client id'), false);
      identities.set(client, { kind: 'server' });
      done(null, true);
      return;
    }
    if (!isDeviceSn(username)) {
      done(refuse(BAD_USERNAME_OR_PASSWORD, 'unknown user'), false);
      return;
    }
    auth.checkDevice(username, password).then(
      (login) => {
        if (!login) return done(refuse(BAD_USERNAME_OR_PASSWORD, 'bad device credentials'), false);
        const dji = login.protocol === DeviceProtocol.DJI;
        if (dji) {
          if (clientId === '' || clientId.startsWith(SERVER_CLIENT_ID_PREFIX)) return done(refuse(IDENTIFIER_REJECTED, 'reserved client id'), false);
        } else if (clientId !== username && !clientId.startsWith(`${username}-`)) {
          return done(refuse(IDENTIFIER_REJECTED, 'device client id must be its sn or start with <sn>-'), false);
        }
        const held = holder(clientId);
        if (held && (held.kind !== 'device' || held.sn !== username)) {
          return done(refuse(IDENTIFIER_REJECTED, 'client id in use by another user'), false);
        }
        identities.set(client, { kind: 'device', sn: username, dji, droneSn: login.droneSn });
        done(null, true);
      },
      () => done(refuse(NOT_AUTHORIZED, 'device lookup failed'), false),
    );
  };
}


/** Sockets corked during this turn of the event loop, uncorked together once its I/O is done. */
const corked: net.Socket[] = [];
let uncorkScheduled = false;

function uncorkAll(): void {
  uncorkScheduled = false;
  for (const socket of corked.splice(0)) socket.uncork();
}

function corkForTurn(socket: net.Socket): void {
  if (socket.writableCorked > 0) return;
  socket.cork();
  corked.push(socket);
  if (!uncorkScheduled) {
    uncorkScheduled = true;
    setImmediate(uncorkAll);
  }
}

/**
 * Cuts a connection whose next MQTT packet announces more than `max` bytes, before the packet is read.
 * Sits between the socket and aedes (aedes reads with 'readable' + read()).
 */
class PacketSizeGuard extends Duplex {
  /** Bytes still to skip of the current packet's body. */
  private remaining = 0;
  /** Header bytes of the next packet being read (type byte + up to 4 length bytes). */
  private header: number[] = [];

  constructor(
    private readonly socket: net.Socket,
    private readonly max: number,
  ) {
    super({ writableHighWaterMark: CLIENT_WRITE_BUFFER_BYTES });
    socket.on('data', (chunk: Buffer) => {
      if (!this.check(chunk)) {
        socket.destroy();
        this.destroy();
        return;
      }
      if (!this.push(chunk)) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => this.destroy());
  }

  private check(chunk: Buffer): boolean {
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const skip = Math.min(this.remaining, chunk.length - i);
        this.remaining -= skip;
        i += skip;
        continue;
      }
      this.header.push(chunk[i]!);
      i++;
      if (this.header.length === 1) continue;
      const last = this.header[this.header.length - 1]!;
      if ((last & 0x80) !== 0) {
        if (this.header.length >= 5) return false; // malformed length
        continue;
      }
      let length = 0;
      for (let k = this.header.length - 1; k >= 1; k--) length = length * 128 + (this.header[k]! & 0x7f);
      this.header = [];
      if (length > this.max) return false;
      this.remaining = length;
    }
    return true;
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.pass([chunk], cb);
  }

  override _writev(chunks: { chunk: Buffer }[], cb: (err?: Error | null) => void): void {
    this.pass(
      chunks.map((c) => c.chunk),
      cb,
    );
  }

  /**
   * Hands writes to the socket, corked until the end of this turn of the event loop: the messages the
   * broker delivers to one client during a turn (a subscriber of every device's telemetry gets one per
   * device message) leave in one system call instead of one each. Backpressure stays the socket's: the
   * next write waits for its drain when it is full.
   */
  private pass(chunks: Buffer[], cb: (err?: Error | null) => void): void {
    if (this.socket.destroyed) return cb();
    corkForTurn(this.socket);
    let room = true;
    for (const chunk of chunks) room = this.socket.write(chunk);
    if (room) cb();
    else this.socket.once('drain', () => cb());
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.socket.end(cb);
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    // What was written this turn goes out first (a refusing CONNACK before the connection is cut).
    while (this.socket.writableCorked > 0) this.socket.uncork();
    this.socket.destroy();
    cb(err);
  }
}

/**
 * One end of an in-memory connection: what is written on one end is read on the other, in order. A write
 * completes once the other end has room (its reader keeps up), so a reader that falls behind slows the
 * writer as a socket would instead of piling data up. Ending or destroying one end ends the other.
 */
class MemoryEnd extends Duplex {
  peer!: MemoryEnd;
  /** The peer's write waiting for this end to be read (backpressure). */
  private waiting: (() => void) | null = null;

  constructor() {
    // As a socket: once the other end has ended, this end ends too.
    super({ allowHalfOpen: false });
  }

  override _read(): void {
    const resume = this.waiting;
    this.waiting = null;
    resume?.();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.deliver(chunk, cb);
  }

  /** Several writes at once (a corked packet's parts) go over as one buffer. */
  override _writev(chunks: { chunk: Buffer }[], cb: (err?: Error | null) => void): void {
    this.deliver(chunks.length === 1 ? chunks[0]!.chunk : Buffer.concat(chunks.map((c) => c.chunk)), cb);
  }

  private deliver(chunk: Buffer, cb: (err?: Error | null) => void): void {
    if (this.peer.destroyed) return cb();
    if (this.peer.push(chunk)) cb();
    else this.peer.waiting = () => cb();
  }

  override _final(cb: (err?: Error | null) => void): void {
    if (!this.peer.destroyed) this.peer.push(null);
    cb();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    const resume = this.peer.waiting;
    this.peer.waiting = null;
    resume?.();
    if (!this.peer.destroyed) this.peer.destroy();
    cb(err);
  }
}

/** Two connected MemoryEnds. */
function memoryPair(): [MemoryEnd, MemoryEnd] {
  const a = new MemoryEnd();
  const b = new MemoryEnd();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

export async function startEmbeddedBroker(opts: {
  host: string;
  port: number;
  auth?: BrokerAuth;
  /**
   * Told once when a connection stops reading (its QoS-0 messages are dropped from then on), and once when
   * it has caught up (with the first message it is sent again), with how many it lost meanwhile.
   */
  onSlowClient?: (event: SlowClientEvent) => void;
}): Promise<EmbeddedBroker> {
  const auth = opts.auth ?? null;
  // The connected clients by client id (a new connection with the same id takes the session over).
  const connected = new Map<string, Client>();
  let slowDrops = 0;
  // The connections that stopped reading and the QoS-0 messages each lost since; a connection leaves when it
  // has caught up or gone.
  const slowClients = new Map<Client, number>();
  const tellSlow = (client: Client, caughtUp: boolean, dropped: number) => {
    const who = identities.get(client);
    opts.onSlowClient?.({ clientId: client.id, user: who?.kind === 'device' ? who.sn : (who?.kind ?? 'unknown'), caughtUp, dropped });
  };
  const holder = (clientId: string): Identity | undefined => {
    const c = connected.get(clientId);
    return c ? identities.get(c) : undefined;
  };
  const aedes = await Aedes.createBroker({
    concurrency: BROKER_CONCURRENCY,
    authenticate: authenticator(auth, holder),
    authorizePublish: (client, packet, callback) => {
      // client null: the broker's own publications (e.g. retained clean-up).
      if (!client) return callback(null);
      const who = identities.get(client);
      if (who?.kind === 'server') return callback(null);
      if (who?.kind === 'device' && packet.payload.length <= LINK_MAX_MESSAGE_BYTES) {
        const allowed = who.dji ? djiPublishAllowed(who.sn, who.droneSn, packet.topic) : devicePublishAllowed(who.sn, packet.topic);
        if (allowed) return callback(null);
      }
      callback(new Error('publish not allowed'));
    },
    authorizeForward: (client, packet) => {
      // A subscriber that stopped reading gets no more QoS-0 messages until its socket has taken what it owes
      // down to half the bound: a client reading slowly near the bound is not told of every other message.
      if (packet.qos !== 0) return packet;
      const owed = client.conn.writableLength;
      // The size check keeps the usual case (nobody slow) to one comparison more per delivery.
      if (slowClients.size > 0) {
        const lost = slowClients.get(client);
        if (lost !== undefined) {
          if (owed > SLOW_SUBSCRIBER_BYTES / 2) {
            slowDrops++;
            slowClients.set(client, lost + 1);
            return null;
          }
          slowClients.delete(client);
          tellSlow(client, true, lost);
          return packet;
        }
      }
      if (owed > SLOW_SUBSCRIBER_BYTES) {
        slowDrops++;
        slowClients.set(client, 1);
        tellSlow(client, false, 0);
        return null;
      }
      return packet;
    },
    authorizeSubscribe: (client, subscription, callback) => {
      const who = identities.get(client);
      if (who?.kind === 'server') return callback(null, subscription);
      if (who?.kind === 'device') {
        const allowed = who.dji ? djiSubscribeAllowed(who.sn, subscription.topic) : deviceSubscribeAllowed(who.sn, subscription.topic);
        if (allowed) return callback(null, subscription);
      }
      // null subscription: SUBACK failure (128) for this topic, the connection stays.
      callback(null, null);
    },
  });
  aedes.on('client', (client) => connected.set(client.id, client));
  aedes.on('clientDisconnect', (client) => {
    slowClients.delete(client);
    if (connected.get(client.id) === client) connected.delete(client.id);
  });
  const server = net.createServer((socket) => {
    // aedes reads and writes any Duplex stream; its types ask for a net.Socket.
    aedes.handle(new PacketSizeGuard(socket, MAX_PACKET_BYTES) as unknown as net.Socket);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(opts.port, opts.host, 'MQTT_PORT');
    throw err;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  let closed: Promise<void> | null = null;
  return {
    host: opts.host,
    port,
    disconnect: async (sn) => {
      for (const client of connected.values()) {
        const who = identities.get(client);
        if (who?.kind === 'device' && who.sn === sn) client.close();
      }
    },
    subscribeInProcess: (filter, deliver) => {
      const route = (packet: AedesPublishPacket, done: () => void) => {
        deliver(packet.topic, typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload);
        done();
      };
      aedes.subscribe(filter, route, () => undefined);
      return () => aedes.unsubscribe(filter, route, () => undefined);
    },
    connectInProcess: () => {
      const [server, link] = memoryPair();
      if (closed) {
        // A closed broker takes no connection: the client sees it closed and retries (as over TCP).
        process.nextTick(() => link.destroy());
        return link;
      }
      // aedes reads and writes any Duplex stream; its types ask for a net.Socket. No size guard: this is
      // the server's own connection.
      aedes.handle(server as unknown as net.Socket);
      return link;
    },
    slowDrops: () => slowDrops,
    close: () => {
      closed ??= (async () => {
        await new Promise<void>((resolve) => aedes.close(() => resolve()));
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closed;
    },
  };
}
