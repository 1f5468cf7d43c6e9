import { open, type FileHandle } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { Compression, PMTiles, SharedPromiseCache, findTile, zxyToTileId, type Header, type RangeResponse, type Source } from 'pmtiles';
import type { MapPackageContainer } from '@nest/contracts';

/**
 * Reading package files: a file-backed PMTiles Source (the npm package reads through a Source; its own
 * FileSource is the browser's File), raw tile reads of PMTiles and MBTiles, and the reader kept open per
 * stored package while its tiles are served.
 */

/** A PMTiles Source over a local file: range reads by position, no whole-file load. */
export class NodeFileSource implements Source {
  private handle: Promise<FileHandle> | null = null;

  constructor(private readonly file: string) {}

  getKey(): string {
    return this.file;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    this.handle ??= open(this.file, 'r');
    const fh = await this.handle;
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, offset);
    // Like an HTTP range read, a range past the end answers what there is (the package reads its first
    // 16 KiB whatever the file's size); the checks compare offsets with the file size themselves.
    return { data: buf.buffer.slice(buf.byteOffset, buf.byteOffset + bytesRead) as ArrayBuffer };
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    if (h) await (await h).close().catch(() => undefined);
  }
}

/** Directory and metadata decompression of the pmtiles package, with Node's gzip (no web streams needed). */
export async function nodeDecompress(buf: ArrayBuffer, compression: Compression): Promise<ArrayBuffer> {
  if (compression === Compression.None || compression === Compression.Unknown) return buf;
  if (compression === Compression.Gzip) {
    const out = gunzipSync(new Uint8Array(buf));
    return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;
  }
  throw new Error(`compression ${compression} is not supported`);
}

/** A PMTiles archive over a local file. */
export function openPmtiles(file: string): { pm: PMTiles; source: NodeFileSource } {
  const source = new NodeFileSource(file);
  return { pm: new PMTiles(source, new SharedPromiseCache(64, false, nodeDecompress), nodeDecompress), source };
}

/** Leaf directories nest at most this deep (the spec's writers use one level; a loop in a hostile file ends here). */
const MAX_DIRECTORY_DEPTH = 4;

/**
 * A tile's bytes as stored (still compressed when the archive's tiles are), or null for a tile the archive
 * does not hold. The package's getZxy would decompress them; the server passes gzip'd vector tiles on as
 * they are.
 */
export async function pmtilesRawTile(pm: PMTiles, header: Header, z: number, x: number, y: number): Promise<Uint8Array | null> {
  const tileId = zxyToTileId(z, x, y);
  let offset = header.rootDirectoryOffset;
  let length = header.rootDirectoryLength;
  for (let depth = 0; depth < MAX_DIRECTORY_DEPTH; depth++) {
    const entries = await pm.cache.getDirectory(pm.source, offset, length, header);
    const entry = findTile(entries, tileId);
    if (!entry) return null;
    if (entry.runLength > 0) {
      const res = await pm.source.getBytes(header.tileDataOffset + entry.offset, entry.length);
      if (res.data.byteLength !== entry.length) throw new RangeError('tile data past the end of the archive');
      return new Uint8Array(res.data);
    }
    offset = header.leafDirectoryOffset + entry.offset;
    length = entry.length;
  }
  return null;
}

/** Reads tiles of one stored package (XYZ rows); `close` releases the file. */
export interface TileReader {
  tile(z: number, x: number, y: number): Promise<Uint8Array | null>;
  close(): Promise<void>;
}

function mbtilesReader(file: string): TileReader {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const stmt = db.prepare<[number, number, number], { tile_data: Buffer }>(
    'SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?',
  );
  return {
    // MBTiles rows count from the south (TMS).
    tile: async (z, x, y) => stmt.get(z, x, 2 ** z - 1 - y)?.tile_data ?? null,
    close: async () => {
      db.close();
    },
  };
}

function pmtilesReader(file: string): TileReader {
  const { pm, source } = openPmtiles(file);
  return {
    tile: async (z, x, y) => pmtilesRawTile(pm, await pm.getHeader(), z, x, y),
    close: () => source.close(),
  };
}

export const openReader = (file: string, container: MapPackageContainer): TileReader =>
  container === 'mbtiles' ? mbtilesReader(file) : pmtilesReader(file);

/** Readers of the packages being served, the most recently used kept open (at most `max`). */
export class Readers {
  private readonly open = new Map<string, TileReader>();

  constructor(private readonly max = 16) {}

  get(id: string, make: () => TileReader): TileReader {
    let reader = this.open.get(id);
    if (reader) {
      this.open.delete(id);
    } else {
      reader = make();
      if (this.open.size >= this.max) {
        const [oldest, r] = this.open.entries().next().value as [string, TileReader];
        this.open.delete(oldest);
        void r.close();
      }
    }
    this.open.set(id, reader);
    return reader;
  }

  async drop(id: string): Promise<void> {
    const r = this.open.get(id);
    this.open.delete(id);
    await r?.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((r) => r.close()));
  }
}
