/**
 * The dock upload ingest as the product mounts it: one set of temporary credentials (sigv4.ts) shared by
 * what hands them out (the DJI adapter's storage_config_get) and what checks them (the PutObject and
 * multipart routes of put.ts, writing into the product's MediaStore), and the endpoint docks are told:
 * `<DEVICE_HTTP_BASE>/s3`, or the listening address on loopback when DEVICE_HTTP_BASE is not set.
 */
import type { FastifyInstance } from 'fastify';
import type { MediaStore } from '../store.js';
import { registerIngestPut } from './put.js';
import { UploadCredentials } from './sigv4.js';

/** The bucket name docks are told; the ingest serves only this one. */
export const INGEST_BUCKET = 'nest-media';
/** The region docks sign with (any value works; it must only be the same on both sides). */
export const INGEST_REGION = 'us-east-1';
/** Where the ingest's routes live under the server's HTTP root. */
export const INGEST_PATH = '/s3';

export class DockUploadIngest {
  readonly bucket = INGEST_BUCKET;
  readonly region = INGEST_REGION;
  readonly credentials = new UploadCredentials(INGEST_REGION);
  private port: () => number | null = () => null;

  /** @param httpBase the HTTP base devices reach the server at (config DEVICE_HTTP_BASE); null: loopback. */
  constructor(private readonly httpBase: string | null) {}

  /** The S3 endpoint docks are given. */
  endpoint(): string {
    const base = this.httpBase ?? `http://127.0.0.1:${this.port() ?? 80}`;
    return `${base.replace(/\/+$/, '')}${INGEST_PATH}`;
  }

  /** Mounts the ingest's routes (composition root), writing accepted objects into `store`. */
  route(app: FastifyInstance, store: MediaStore): void {
    this.port = () => {
      const address = app.server.address();
      return address && typeof address === 'object' ? address.port : null;
    };
    registerIngestPut(app, { bucket: this.bucket, store, credentials: this.credentials });
  }
}
