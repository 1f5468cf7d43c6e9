import { describe, expect, it } from 'vitest';
import { UploadCredentials } from '../../storage/ingest/sigv4.js';
import { DjiResult } from '@nest/contracts';
import { dockObjectPrefix, eventResult, mediaStoredOf, storageConfigOutput } from './media.js';

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

describe('DJI file_upload_callback as media.stored', () => {
  const file = (over: Record<string, unknown> = {}) => ({
    result: 0,
    file: {
      object_key: 'dji/DOCK-A/f1/DJI_20260101120000_0001_V.jpeg',
      name: 'DJI_20260101120000_0001_V.jpeg',
      ext: { flight_id: 'f1', drone_model_key: '0-91-0', is_original: true },
      metadata: { shoot_position: { lat: 22.5, lng: 114.1 }, absolute_altitude: 90, relative_altitude: 50, created_time: '2026-01-01T12:00:00+08:00' },
      ...over,
    },
  });

  it('reads the file, its flight, position, altitude and shot time', () => {
    expect(mediaStoredOf('DOCK-A', 'DRONE-A', file(), 5)).toEqual({
      object_key: 'dji/DOCK-A/f1/DJI_20260101120000_0001_V.jpeg',
      file_name: 'DJI_20260101120000_0001_V.jpeg',
      flight_id: 'f1',
      uav_sn: 'DRONE-A',
      type: 10,
      mime: 'image/jpeg',
      lat: 22.5,
      lng: 114.1,
      height: 50,
      taken_at: Date.UTC(2026, 0, 1, 4),
    });
    const video = mediaStoredOf('DOCK-A', 'DRONE-A', file({ object_key: 'dji/DOCK-A/v 1.MP4', name: undefined, ext: undefined, metadata: undefined }), 5);
    expect(video).toMatchObject({ type: 20, mime: 'video/mp4', file_name: 'v_1.MP4', flight_id: null, taken_at: 5 });
  });

  it('refuses keys outside the dock prefix, dot segments, other types and unreadable data', () => {
    for (const key of ['dji/DOCK-B/x.jpeg', 'dji/DOCK-A/../DOCK-B/x.jpeg', 'dji/DOCK-A//x.jpeg', 'dji/DOCK-A/.hidden.jpg', 'dji/DOCK-AB/x.jpeg']) {
      expect(mediaStoredOf('DOCK-A', 'D', file({ object_key: key }), 0)).toHaveProperty('refused');
    }
    expect(mediaStoredOf('DOCK-A', 'D', file({ object_key: 'dji/DOCK-A/x.dng' }), 0)).toEqual({ refused: 'bad_data' });
    expect(mediaStoredOf('DOCK-A', 'D', { file: {} }, 0)).toEqual({ refused: 'bad_data' });
    expect(mediaStoredOf('DOCK-A', 'D', file({ metadata: { shoot_position: { lat: 95, lng: 0 } } }), 0)).toEqual({ refused: 'bad_data' });
  });

  it('answers a refusal code when any listener refused, else 0', () => {
    expect(eventResult([undefined, { id: 'r' }])).toBe(0);
    expect(eventResult([undefined, { refused: 'not_found' }])).toBe(DjiResult.MEDIA_REFUSED);
  });
});
