import type { Worker } from 'node:worker_threads';
import type { DeviceLogin } from '../link/credentials.js';
import { moduleWorker } from '../threads.js';
import { PortInUseError, type BrokerAuth, type BrokerHandle, type SlowClientEvent } from './index.js';

/** What the broker's thread is started with (its workerData). */
export interface ThreadOptions {
  host: string;
  port: number;
  /** The server's own login; null: no authenticator (lifecycle tests only). */
  serverPassword: string | null;
}

/** Main thread -> broker thread. */
export type ToThread =
  | { type: 'checked'; id: number; login: DeviceLogin | null }
  | { type: 'disconnect'; id: number; sn: string }
  | { type: 'close'; id: number };

/** Broker thread -> main thread. */
export type FromThread =
  | { type: 'ready'; port: number }
  | { type: 'failed'; inUse: { port: number; host: string; variable: string } | null; message: string }
  | { type: 'check'; id: number; sn: string; password: Uint8Array }
  | { type: 'slow'; event: SlowClientEvent }
  | { type: 'drops'; count: number }
  | { type: 'done'; id: number };

/**
 * The embedded broker (index.ts) in a worker thread of its own (thread-worker.ts): the devices' MQTT
 * connections, their packets and the broker's routing run on another event loop, so that the server's
 * event loop carries only what the server does with the messages. The server's link then reaches the
 * broker over TCP on loopback, as it reaches an external broker (its session and telemetry connections,
 * probes and presence judged as with Mosquitto), not in memory.
 *
 * Device logins are decided here, on the main thread, which holds the registry (`auth.checkDevice`): the
 * thread asks and waits for the answer. A thread that stops (a fault in it) is started again on the same
 * port after `restartMs`, so the devices reconnect; `onFault` is told.
 */
export async function startBrokerThread(opts: {
  host: string;
  port: number;
  auth?: BrokerAuth;
  onSlowClient?: (event: SlowClientEvent) => void;
  onFault?: (err: Error) => void;
  restartMs?: number;
  /** Told of each thread started (the first and every restart). */
  onThread?: (worker: Worker) => void;
}): Promise<BrokerHandle> {
  let worker: Worker;
  /** Whether the current thread has stopped (until it is started again). */
  let stopped = false;
  /** QoS-0 drops told by the threads before the current one (a thread started again counts from 0). */
  let dropsBefore = 0;
  let drops = 0;
  let closing: Promise<void> | null = null;
  let nextId = 1;
  const waiting = new Map<number, () => void>();

  /** Starts the thread on `port` and resolves with the port it listens on. */
  const start = (port: number): Promise<number> =>
    new Promise<number>((resolve, reject) => {
      const options: ThreadOptions = { host: opts.host, port, serverPassword: opts.auth?.serverPassword ?? null };
      const w = moduleWorker(import.meta.url, './thread-worker', { workerData: options });
      // The server's own listeners keep the process alive; the broker's thread alone does not.
      w.unref();
      worker = w;
      stopped = false;
      opts.onThread?.(w);
      let started = false;
      w.on('message', (m: FromThread) => {
        switch (m.type) {
          case 'ready':
            started = true;
            resolve(m.port);
            return;
          case 'failed':
            reject(m.inUse ? new PortInUseError(m.inUse.port, m.inUse.host, m.inUse.variable) : new Error(m.message));
            return;
          case 'check': {
            const answer = (login: DeviceLogin | null) => w.postMessage({ type: 'checked', id: m.id, login } satisfies ToThread);
            if (!opts.auth) return answer(null);
            // A login the registry cannot decide now (database down) is refused: the device tries again.
            opts.auth.checkDevice(m.sn, Buffer.from(m.password)).then(answer, () => answer(null));
            return;
          }
          case 'slow':
            opts.onSlowClient?.(m.event);
            return;
          case 'drops':
            drops = dropsBefore + m.count;
            return;
          case 'done':
            waiting.get(m.id)?.();
            waiting.delete(m.id);
            return;
        }
      });
      w.on('error', (err) => {
        if (!started) reject(err);
        else opts.onFault?.(err);
      });
      w.on('exit', (code) => {
        if (w !== worker) return;
        stopped = true;
        dropsBefore = drops;
        for (const done of waiting.values()) done();
        waiting.clear();
        if (!started) return reject(new Error(`the broker thread exited (${code}) before it listened`));
        if (closing) return;
        opts.onFault?.(new Error(`the broker thread stopped (exit code ${code}); starting it again`));
        restart();
      });
    });

  /** Starts the thread again after `restartMs`, and again after each failed attempt (the port still taken). */
  const restart = (): void => {
    setTimeout(() => {
      if (closing) return;
      start(listening).catch((err: unknown) => {
        opts.onFault?.(err instanceof Error ? err : new Error(String(err)));
        restart();
      });
    }, opts.restartMs ?? 1000).unref();
  };

  /** Sends a request the thread answers with `done` (nothing to wait for once the thread is gone). */
  const ask = (message: { type: 'disconnect'; sn: string } | { type: 'close' }): Promise<void> =>
    new Promise<void>((resolve) => {
      // A stopped thread holds no connection, and is not started again once closing.
      if (stopped) return resolve();
      const id = nextId++;
      waiting.set(id, resolve);
      worker.postMessage({ ...message, id } satisfies ToThread);
    });

  const listening = await start(opts.port);
  return {
    host: opts.host,
    port: listening,
    disconnect: (sn) => ask({ type: 'disconnect', sn }),
    slowDrops: () => drops,
    close: () => {
      closing ??= (async () => {
        await ask({ type: 'close' });
        await worker.terminate();
      })();
      return closing;
    },
  };
}
