import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { NoSuchObject, checkKey, type ByteRange, type MediaStore, type ObjectInfo, type PutOptions } from './store.js';

/**
 * Media under a local directory (DATA_DIR by default): key `a/b/c` is the file `<root>/a/b/c`, exactly the
 * layout the server always used, so existing data keeps working. A put writes a hidden temp file beside
 * the destination and renames it into place: readers see the old object or the whole new one, and a
 * failed write (disk full) leaves neither a partial file nor a changed object.
 */
export class LocalMediaStore implements MediaStore {
  readonly kind = 'local' as const;

  constructor(readonly root: string) {}

  /** The file behind a key (the key is checked first: nothing outside the root). */
  fileOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  private async place(key: string, write: (temp: string) => Promise<void>): Promise<void> {
    const dest = this.fileOf(key);
    await mkdir(path.dirname(dest), { recursive: true });
    const temp = path.join(path.dirname(dest), `.${path.basename(dest)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await write(temp);
      await rename(temp, dest);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async putFile(key: string, file: string, opts: PutOptions = {}): Promise<void> {
    if (opts.move) {
      const dest = this.fileOf(key);
      await mkdir(path.dirname(dest), { recursive: true });
      try {
        // Same file system (DATA_DIR/tmp and DATA_DIR/media): free and atomic.
        await rename(file, dest);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      }
    }
    await this.place(key, (temp) => copyFile(file, temp));
    if (opts.move) await rm(file, { force: true });
  }

  async putBytes(key: string, data: Uint8Array): Promise<void> {
    await this.place(key, (temp) => writeFile(temp, data));
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const st = await stat(this.fileOf(key)).catch(() => null);
    if (!st?.isFile()) return null;
    // Size and mtime, like the static file server's ETag: changes whenever the file is replaced.
    return { size: st.size, etag: `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`, modified: st.mtime };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.fileOf(key);
    const st = await stat(file).catch(() => null);
    if (!st?.isFile()) throw new NoSuchObject(key);
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    await rm(this.fileOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.fileOf(prefix), { recursive: true, force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const dir = this.fileOf(prefix);
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => path.relative(this.root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .sort();
  }

  async close(): Promise<void> {}
}
