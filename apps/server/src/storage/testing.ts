import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { MediaStoreConfig } from './config.js';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** MEDIA_STORE=s3 settings for this server, with a key prefix of its own. */
  config(prefix?: string): Extract<MediaStoreConfig, { kind: 's3' }>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server on loopback (s3rver: S3's REST API in Node, objects in a temp directory),
 * with one bucket. Signatures are checked against its fixed key pair S3RVER / S3RVER.
 */
export async function startTestS3(bucket = 'nest-media'): Promise<TestS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'nest-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    config: (prefix = '') => ({
      kind: 's3',
      endpoint,
      region: 'us-east-1',
      bucket,
      prefix,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    }),
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
