import net from 'node:net';
import { Duplex } from 'node:stream';
import {
  LINK_MAX_MESSAGE_BYTES,
  SERVER_CLIENT_ID_PREFIX,
  SERVER_MQTT_USER,
  devicePublishAllowed,
  deviceSubscribeAllowed,
  isDeviceSn,
} from '@nest/contracts';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { samePassword } from '../link/credentials.js';

/**
 * The embedded MQTT broker (aedes), started when MQTT_URL is unset. It listens on loopback only and
 * enforces the device-link rules itself (docs/device-protocol.md, "Broker"):
 * - authentication: the server user (`nest-server`) with its password, or user name = sn of a registered
 *   enabled device with devicePassword(device key, sn); everyone else is refused (CONNACK 4 / 5);
 * - a device may publish only on its own device -> server topics and subscribe only to its own
 *   server -> device topics (contracts devicePublishAllowed / deviceSubscribeAllowed); a refused publish
 *   disconnects the device, a refused subscription gets a failure code;
 * - client ids starting with `nest-server-` are reserved for server instances, and a device's client id
 *   must be its sn or start with `<sn>-`, so no client can take over another's session;
 * - no MQTT packet may exceed MAX_PACKET_BYTES: the connection is cut as soon as a larger one is announced.
 */
/**
 * Messages aedes delivers at once. Its default (100) was exhausted at 2,000 devices at 1 Hz
 * (bench/fleet-soak.ts): while a subscriber's socket waits for `drain` (the server's own link client when
 * its event loop is busy, a second full subscriber) each message holds a slot, the rest queue up, the
 * queue's O(n) shift() took an eighth of the server's CPU, and draining it recursively overflowed the stack
 * (RangeError in mqemitter `released`). Room for a few seconds of such a fleet.
 */
export const BROKER_CONCURRENCY = 10_000;

/** The running broker; aedes itself stays inside this module. */
export interface EmbeddedBroker {
  readonly host: string;
  readonly port: number;
  /**
   * Closes the connections of a device (client id = its sn or `<sn>-...`). Whether it may log in again is
   * the login check's answer (BrokerAuth.checkDevice reads the registry).
   */
  disconnect(sn: string): Promise<void>;
  close(): Promise<void>;
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
  /** True when `sn` is a registered, enabled device whose password is `password` (timing-safe). */
  checkDevice(sn: string, password: Buffer): Promise<boolean>;
}

/** Largest MQTT packet accepted: a link message plus room for the topic and headers. */
export const MAX_PACKET_BYTES = LINK_MAX_MESSAGE_BYTES + 1024;

/** MQTT CONNACK return codes. */
const IDENTIFIER_REJECTED = 2;
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

type Identity = { kind: 'server' } | { kind: 'device'; sn: string };
const identities = new WeakMap<Client, Identity>();

const refuse = (returnCode: number, message: string): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

function authenticator(auth: BrokerAuth | null) {
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
      (ok) => {
        if (!ok) return done(refuse(BAD_USERNAME_OR_PASSWORD, 'bad device credentials'), false);
        if (clientId !== username && !clientId.startsWith(`${username}-`)) {
          return done(refuse(IDENTIFIER_REJECTED, 'device client id must be its sn or start with <sn>-'), false);
        }
        identities.set(client, { kind: 'device', sn: username });
        done(null, true);
      },
      () => done(refuse(NOT_AUTHORIZED, 'device lookup failed'), false),
    );
  };
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
    super();
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
    if (this.socket.destroyed) return cb();
    this.socket.write(chunk, cb);
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.socket.end(cb);
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.socket.destroy();
    cb(err);
  }
}

export async function startEmbeddedBroker(opts: { host: string; port: number; auth?: BrokerAuth }): Promise<EmbeddedBroker> {
  const auth = opts.auth ?? null;
  const aedes = await Aedes.createBroker({
    concurrency: BROKER_CONCURRENCY,
    authenticate: authenticator(auth),
    authorizePublish: (client, packet, callback) => {
      // client null: the broker's own publications (e.g. retained clean-up).
      if (!client) return callback(null);
      const who = identities.get(client);
      if (who?.kind === 'server') return callback(null);
      if (who?.kind === 'device' && devicePublishAllowed(who.sn, packet.topic) && packet.payload.length <= LINK_MAX_MESSAGE_BYTES) {
        return callback(null);
      }
      callback(new Error('publish not allowed'));
    },
    authorizeSubscribe: (client, subscription, callback) => {
      const who = identities.get(client);
      if (who?.kind === 'server') return callback(null, subscription);
      if (who?.kind === 'device' && deviceSubscribeAllowed(who.sn, subscription.topic)) return callback(null, subscription);
      // null subscription: SUBACK failure (128) for this topic, the connection stays.
      callback(null, null);
    },
  });
  // The connected clients by client id (a new connection with the same id takes the session over).
  const connected = new Map<string, Client>();
  aedes.on('client', (client) => connected.set(client.id, client));
  aedes.on('clientDisconnect', (client) => {
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
      for (const [id, client] of connected) if (id === sn || id.startsWith(`${sn}-`)) client.close();
    },
    close: () => {
      closed ??= (async () => {
        await new Promise<void>((resolve) => aedes.close(() => resolve()));
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closed;
    },
  };
}
