import net from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';

/**
 * The embedded MQTT broker (aedes), started when MQTT_URL is unset. This module is lifecycle only: listen
 * on host:port, refuse clients without username and password (so the port is not open to anonymous
 * publishers), close. Device authentication, topics and the device link are a later issue.
 */
export interface EmbeddedBroker {
  readonly aedes: Aedes;
  readonly host: string;
  readonly port: number;
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

/** MQTT CONNACK return code 4: bad user name or password. */
const BAD_USERNAME_OR_PASSWORD = 4;

export async function startEmbeddedBroker(opts: { host: string; port: number }): Promise<EmbeddedBroker> {
  const aedes = await Aedes.createBroker({
    authenticate: (_client, username, password, done) => {
      if (!username || !password || password.length === 0) {
        const error = Object.assign(new Error('username and password required'), {
          returnCode: BAD_USERNAME_OR_PASSWORD,
        }) as AuthenticateError;
        done(error, false);
        return;
      }
      done(null, true);
    },
  });
  const server = net.createServer(aedes.handle);
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
    aedes,
    host: opts.host,
    port,
    close: () => {
      closed ??= (async () => {
        await new Promise<void>((resolve) => aedes.close(() => resolve()));
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closed;
    },
  };
}
