import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { NoSuchObject, checkKey, type ByteRange, type MediaStore, type ObjectInfo, type PutOptions } from './store.js';

export interface S3Settings {
  endpoint: string | null;
  region: string;
  bucket: string;
  /** Key prefix inside the bucket, without slashes at either end; '' for none. */
  prefix: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  forcePathStyle: boolean;
}

/** Parts of a multipart upload (S3's minimum is 5 MiB; 8 MiB keeps memory at 2 x 8 MiB per put). */
export const PART_SIZE = 8 * 1024 * 1024;

const missing = (err: unknown): boolean => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, OSS/COS in S3 mode): object
 * `<prefix>/<key>`. Files go up with lib-storage's Upload, which sends one PUT for small files and a
 * multipart upload (PART_SIZE parts) for large ones; S3 makes an object visible only once it is
 * complete, so readers never see half of it. Checksums are computed and validated only where the API
 * requires them: servers other than AWS do not all know the newer checksum headers.
 */
export class S3MediaStore implements MediaStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;

  constructor(readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    checkKey(key);
    return this.settings.prefix ? `${this.settings.prefix}/${key}` : key;
  }

  private async upload(key: string, body: Readable | Uint8Array, contentType?: string): Promise<void> {
    const up = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: body, ContentType: contentType ?? 'application/octet-stream' },
      partSize: PART_SIZE,
      queueSize: 2,
      // An abandoned multipart upload is aborted, so no invisible parts keep using space.
      leavePartsOnError: false,
    });
    await up.done();
  }

  async putFile(key: string, file: string, opts: PutOptions = {}): Promise<void> {
    await this.upload(key, createReadStream(file), opts.contentType);
    if (opts.move) await rm(file, { force: true });
  }

  async putBytes(key: string, data: Uint8Array, opts: PutOptions = {}): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), Body: data, ContentType: opts.contentType ?? 'application/octet-stream' }),
    );
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const h = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return { size: Number(h.ContentLength ?? 0), etag: h.ETag ?? '""', modified: h.LastModified ?? new Date(0) };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const got = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      const body = got.Body;
      if (body instanceof Readable) return body;
      if (!body) return Readable.from([]);
      return Readable.fromWeb(body.transformToWebStream() as Parameters<typeof Readable.fromWeb>[0]);
    } catch (err) {
      if (missing(err)) throw new NoSuchObject(key);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  private async keysUnder(prefix: string): Promise<string[]> {
    const full = `${this.objectKey(prefix)}/`;
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: full, ContinuationToken: token }));
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async deletePrefix(prefix: string): Promise<void> {
    const keys = await this.keysUnder(prefix);
    for (let i = 0; i < keys.length; i += 1000) {
      await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.settings.bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }),
      );
    }
  }

  async list(prefix: string): Promise<string[]> {
    const strip = this.settings.prefix ? this.settings.prefix.length + 1 : 0;
    return (await this.keysUnder(prefix)).map((k) => k.slice(strip)).sort();
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
