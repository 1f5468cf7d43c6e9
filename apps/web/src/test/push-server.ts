/**
 * Test support of the web's push tests (not part of the app): a push server on loopback and a wait on
 * client-side state. Imported by test files only.
 */
import { WebSocketServer, WebSocket as NodeWebSocket, type WebSocket as ServerSocket } from 'ws';

/**
 * The ws package's client as the browser WebSocket of a test: a real client on loopback, whatever WebSocket
 * the test DOM offers (jsdom's could not dispatch its events in vitest).
 */
export const TestWebSocket = NodeWebSocket as unknown as new (url: string) => WebSocket;

export interface Frame {
  msg_id: number;
  data: Record<string, unknown>;
}

/**
 * A push server in the test (ws on loopback, a port from the OS) that answers like the product's hub on the
 * points the client depends on: every frame but 100 and 101 is answered LOGIN_EXPIRED until 100 succeeds,
 * 210 on is answered 2000 and followed by a 310 batch, 200 by 2000. `hold100` keeps the answer to 100
 * back until released, `onFrame` adds behaviour. It can be stopped and started again on the same port, as
 * the product is when it restarts.
 */
export class TestPushServer {
  wss: WebSocketServer | null = null;
  port = 0;
  /** Frames received, per connection, in order. */
  readonly connections: Frame[][] = [];
  readonly sockets: ServerSocket[] = [];
  hold100 = false;
  private held: (() => void)[] = [];
  private waiters: (() => void)[] = [];
  onFrame: ((frame: Frame, socket: ServerSocket) => boolean | void) | null = null;

  async start(): Promise<void> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: this.port });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    this.port = (wss.address() as { port: number }).port;
    this.wss = wss;
    wss.on('connection', (socket) => {
      const frames: Frame[] = [];
      this.connections.push(frames);
      this.sockets.push(socket);
      let verified = false;
      const reply = (code: number, msgId: number, data: unknown = null, msg = '') => socket.send(JSON.stringify({ code, msg, msg_id: msgId, data }));
      socket.on('message', (raw: Buffer) => {
        const frame = JSON.parse(raw.toString('utf8')) as Frame;
        frames.push(frame);
        this.changed();
        if (this.onFrame?.(frame, socket)) return;
        if (frame.msg_id === 100) {
          const answer = () => {
            verified = true;
            reply(2000, 100, { u_id: 'u1' });
          };
          if (this.hold100) this.held.push(answer);
          else answer();
        } else if (!verified) {
          reply(40263, frame.msg_id);
        } else if (frame.msg_id === 101) {
          reply(2000, 101);
        } else if (frame.msg_id === 200) {
          reply(2000, 200, { sn_id: frame.data.sn_id });
        } else if (frame.msg_id === 210) {
          reply(2000, 210, { on: frame.data.on });
          if (frame.data.on) socket.send(JSON.stringify({ msg_id: 310, data: { devices: [{ sn_id: 'SN1', at: this.connections.length }] } }));
        }
      });
    });
  }

  /** Stops listening and drops every connection at once (no close frame), as a process that exits. */
  async stop(): Promise<void> {
    const wss = this.wss;
    this.wss = null;
    if (!wss) return;
    for (const s of wss.clients) s.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }

  release100(): void {
    this.held.splice(0).forEach((answer) => answer());
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}/api/push`;
  }

  private changed(): void {
    this.waiters.splice(0).forEach((w) => w());
  }

  /** Resolves once `cond` holds, checked after every frame received (a safety limit names what was awaited). */
  async until(what: string, cond: () => boolean, limitMs = 30_000): Promise<void> {
    const deadline = Date.now() + limitMs;
    while (!cond()) {
      if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(this.connections.map((c) => c.map((f) => f.msg_id)))}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 250);
      });
    }
  }

  ids(connection: number): number[] {
    return (this.connections[connection] ?? []).map((f) => f.msg_id);
  }
}

/** Resolves once `cond` holds, read again on every client-side event the test records. */
export async function eventually(what: string, cond: () => boolean, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
