import { describe, expect, it } from 'vitest';
import { UploadCredentials } from '../../storage/ingest/sigv4.js';
import { dockObjectPrefix, storageConfigOutput } from './media.js';

describe('DJI storage_config_get answer', () => {
  it('gives each dock its own prefix and fresh temporary credentials from the ingest', () => {
    const issuer = new UploadCredentials('us-east-1', () => 1_000_000_000_000);
    const opts = { endpoint: 'http://10.0.0.2:8080/s3', bucket: 'media', region: 'us-east-1', issuer, ttlSeconds: 600 };
    const a = storageConfigOutput('DOCK-A', opts);
    const b = storageConfigOutput('DOCK/B', opts);
    expect(a).toMatchObject({ bucket: 'media', endpoint: 'http://10.0.0.2:8080/s3', provider: 'minio', region: 'us-east-1', object_key_prefix: 'dji/DOCK-A' });
    expect(a.credentials.expire).toBe(1_000_000_000 + 600);
    expect(b.object_key_prefix).toBe('dji/DOCK_B');
    expect(dockObjectPrefix('DOCK-A')).toBe('dji/DOCK-A/');
    expect(a.credentials.access_key_id).not.toBe(b.credentials.access_key_id);
    expect(a.credentials.access_key_secret).not.toBe(b.credentials.access_key_secret);
  });
});
