import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

const s3 = { MEDIA_STORE: 's3', S3_BUCKET: 'nest-media', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };

describe('MEDIA_STORE settings', () => {
  it('defaults to the local directory', () => {
    expect(loadConfig({}).mediaStore).toEqual({ kind: 'local' });
  });

  it('reads the S3 settings, path style by default with a custom endpoint', () => {
    expect(loadConfig({ ...s3, S3_PREFIX: '/nest/prod/', S3_REGION: 'cn-north-1' }).mediaStore).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:9000',
      region: 'cn-north-1',
      bucket: 'nest-media',
      prefix: 'nest/prod',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
    });
    // AWS itself: no endpoint, virtual-hosted style, the SDK's credential chain.
    expect(loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'nest-media' }).mediaStore).toMatchObject({ endpoint: null, forcePathStyle: false, accessKeyId: null, region: 'us-east-1' });
    expect(loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'false' }).mediaStore).toMatchObject({ forcePathStyle: false });
  });

  it('stops start-up with one line on invalid combinations', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ MEDIA_STORE: 'nfs' }, /^MEDIA_STORE must be local or s3/],
      [{ S3_BUCKET: 'nest-media' }, /^S3_BUCKET set but MEDIA_STORE is local/],
      [{ MEDIA_STORE: 's3' }, /^MEDIA_STORE=s3 needs S3_BUCKET$/],
      [{ ...s3, S3_BUCKET: 'Bad_Bucket' }, /^S3_BUCKET must be a valid bucket name/],
      [{ ...s3, S3_ENDPOINT: 'ftp://x' }, /^S3_ENDPOINT must be an http\(s\) URL/],
      [{ ...s3, S3_ENDPOINT: 'http://x:9000/bucket' }, /^S3_ENDPOINT must be an http\(s\) URL/],
      [{ ...s3, S3_SECRET_ACCESS_KEY: '' }, /^S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/],
      [{ ...s3, S3_PREFIX: 'a/../b' }, /^S3_PREFIX must be path segments/],
      [{ ...s3, S3_FORCE_PATH_STYLE: 'yes' }, /^S3_FORCE_PATH_STYLE must be true or false/],
    ];
    for (const [env, message] of cases) {
      let err: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).not.toContain('\n');
    }
  });
});
