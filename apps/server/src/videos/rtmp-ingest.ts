// The declarations of the untyped package travel with this module, so every program that compiles it (server,
// bench) has them; ambient module declarations cannot be imported.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./node-media-server.d.ts" />
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import path from 'node:path';
import Flv from 'node-media-server/src/protocol/flv.js';
import Rtmp from 'node-media-server/src/protocol/rtmp.js';
import type { LinkLogger } from '../link/adapter.js';

/**
 * The RTMP ingest DJI docks publish live video to. It speaks RTMP with node-media-server's protocol state
 * machine on our own TCP listener (its server class is not embeddable: global configuration, a JSON store in
 * the working directory, process.exit when the port is taken), asks `accepts` (RtmpSlots) for the publish
 * path and key, drops a refused publisher before anything is written, and remuxes an accepted stream (FLV
 * tags on ffmpeg's stdin, video copied) into the HLS playlist native devices write: LIVE_DIR/<sn>/index.m3u8.
 * Those protocol files are not the package's public entry, so the dependency is pinned to one version.
 */
export interface RtmpIngestOptions {
  /** The device a publisher to `streamPath` with `key` publishes for, or null: refused (RtmpSlots.accepts). */
  accepts(streamPath: string, key: string | undefined): string | null;
  liveDir: string;
  host: string;
  /** 0: a free port (tests). */
  port: number;
  /** The ffmpeg binary; null: refuse every publisher (no way to write HLS). */
  ffmpeg: string | null;
  log: LinkLogger;
  /** How long a connection may take to become an accepted publisher (default 10 s). */
  handshakeMs?: number;
  /** Connections not yet accepted as publishers, at most (default 32); more are closed at once. */
  maxPending?: number;
}

const HANDSHAKE_MS = 10_000;
const MAX_PENDING = 32;

interface Publisher {
  sn: string;
  socket: Socket;
  ffmpeg: ChildProcess;
}

/** ffmpeg arguments that turn FLV on stdin into a rolling 1 s HLS playlist in `outDir`, without re-encoding. */
export function remuxArgs(outDir: string): string[] {
  return [
    '-hide_banner',
    '-loglevel', 'error',
    '-f', 'flv',
    '-i', 'pipe:0',
    '-c', 'copy',
    '-f', 'hls',
    '-hls_time', '1',
    '-hls_list_size', '6',
    '-hls_flags', 'delete_segments+omit_endlist',
    '-hls_segment_filename', path.join(outDir, 'seg-%05d.ts'),
    path.join(outDir, 'index.m3u8'),
  ];
}

export class RtmpIngest {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly publishers = new Map<string, Publisher>();

  constructor(private readonly opts: RtmpIngestOptions) {
    this.server = createServer((socket) => this.session(socket));
  }

  /** Listens; resolves with the bound port. */
  async start(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.opts.port, this.opts.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return (this.server.address() as AddressInfo).port;
  }

  /** Drops the publisher of `sn` (its slot was closed) and removes its video. */
  drop(sn: string): void {
    this.publishers.get(sn)?.socket.destroy();
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private session(socket: Socket): void {
    // Anyone can reach the port: a connection that is not an accepted publisher within the handshake time,
    // or beyond the number of such connections, is closed before it costs more than a socket.
    const pending = this.sockets.size - this.publishers.size;
    if (pending >= (this.opts.maxPending ?? MAX_PENDING)) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.setTimeout(this.opts.handshakeMs ?? HANDSHAKE_MS, () => {
      if (!publisher) socket.destroy();
    });
    const rtmp = new Rtmp();
    let publisher: Publisher | null = null;
    let refused = false;
    rtmp.onOutputCallback = (buffer) => {
      if (!socket.destroyed) socket.write(buffer);
    };
    rtmp.onConnectCallback = (req) => {
      const key = typeof req.query.key === 'string' ? req.query.key : undefined;
      const sn = this.opts.accepts(`/${req.app}/${req.name}`, key);
      if (!sn || !this.opts.ffmpeg || this.publishers.has(sn)) {
        refused = true;
        this.opts.log.warn({ app: req.app, name: req.name, remote: socket.remoteAddress }, 'RTMP publisher refused');
        socket.destroy();
        return;
      }
      publisher = this.publish(sn, socket, this.opts.ffmpeg);
      socket.setTimeout(0);
    };
    // Playing is not offered: the console reads HLS.
    rtmp.onPlayCallback = () => socket.destroy();
    rtmp.onPushCallback = () => undefined;
    rtmp.onPacketCallback = (packet) => {
      if (refused || !publisher) return;
      const stdin = publisher.ffmpeg.stdin;
      // Backpressure: while ffmpeg falls behind, stop reading from the dock rather than buffer its video.
      if (stdin?.writable && !stdin.write(Flv.createMessage(packet))) {
        socket.pause();
        stdin.once('drain', () => socket.resume());
      }
    };
    socket.on('data', (data: Buffer) => {
      if (refused) return;
      const err = rtmp.parserData(data);
      if (err) {
        this.opts.log.warn({ err }, 'RTMP protocol error');
        socket.destroy();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(socket);
      if (publisher) this.unpublish(publisher);
    });
  }

  private publish(sn: string, socket: Socket, ffmpegPath: string): Publisher {
    const outDir = path.join(this.opts.liveDir, sn);
    // ffmpeg's HLS muxer does not create its directory.
    mkdirSync(outDir, { recursive: true });
    const ffmpeg = spawn(ffmpegPath, remuxArgs(outDir), { stdio: ['pipe', 'ignore', 'pipe'] });
    ffmpeg.stdin.on('error', () => undefined);
    ffmpeg.stderr.on('data', (d: Buffer) => this.opts.log.warn({ sn, ffmpeg: d.toString().trim() }, 'RTMP ingest ffmpeg'));
    ffmpeg.on('exit', () => socket.destroy());
    ffmpeg.stdin.write(Flv.createHeader(false, true));
    const p: Publisher = { sn, socket, ffmpeg };
    this.publishers.set(sn, p);
    this.opts.log.info({ sn }, 'RTMP publisher accepted');
    return p;
  }

  private unpublish(p: Publisher): void {
    if (this.publishers.get(p.sn) === p) this.publishers.delete(p.sn);
    p.ffmpeg.stdin?.end();
    const remove = () => void rm(path.join(this.opts.liveDir, p.sn), { recursive: true, force: true });
    // ffmpeg may have ended first (it is what closed the socket then).
    if (p.ffmpeg.exitCode !== null || p.ffmpeg.signalCode !== null) remove();
    else p.ffmpeg.once('exit', remove);
  }
}
