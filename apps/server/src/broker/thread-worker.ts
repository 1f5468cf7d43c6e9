/**
 * The embedded broker in a worker thread (thread.ts starts it): the same broker (index.ts), its device
 * logins asked of the main thread, which holds the registry. Messages: thread.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DeviceLogin } from '../link/credentials.js';
import { PortInUseError, startEmbeddedBroker } from './index.js';
import type { FromThread, ThreadOptions, ToThread } from './thread.js';

const port = parentPort!;
const options = workerData as ThreadOptions;
const send = (message: FromThread): void => port.postMessage(message);

/** Device logins waiting for the main thread's answer, by request id. */
const checks = new Map<number, (login: DeviceLogin | null) => void>();
let nextCheck = 1;

try {
  const broker = await startEmbeddedBroker({
    host: options.host,
    port: options.port,
    ...(options.serverPassword === null
      ? {}
      : {
          auth: {
            serverPassword: options.serverPassword,
            checkDevice: (sn: string, password: Buffer) =>
              new Promise<DeviceLogin | null>((resolve) => {
                const id = nextCheck++;
                checks.set(id, resolve);
                send({ type: 'check', id, sn, password: new Uint8Array(password) });
              }),
          },
        }),
    onSlowClient: (event) => send({ type: 'slow', event }),
  });
  // The QoS-0 drops are read by the main thread synchronously: it keeps the last count told.
  let toldDrops = 0;
  const drops = setInterval(() => {
    const count = broker.slowDrops();
    if (count === toldDrops) return;
    toldDrops = count;
    send({ type: 'drops', count });
  }, 1000);
  drops.unref();
  port.on('message', (m: ToThread) => {
    switch (m.type) {
      case 'checked':
        checks.get(m.id)?.(m.login);
        checks.delete(m.id);
        return;
      case 'disconnect':
        void broker.disconnect(m.sn).then(() => send({ type: 'done', id: m.id }));
        return;
      case 'close':
        clearInterval(drops);
        void broker.close().then(() => {
          send({ type: 'done', id: m.id });
          port.close();
        });
        return;
    }
  });
  send({ type: 'ready', port: broker.port });
} catch (err) {
  send({
    type: 'failed',
    inUse: err instanceof PortInUseError ? { port: err.port, host: err.host, variable: err.variable } : null,
    message: err instanceof Error ? err.message : String(err),
  });
  port.close();
}
