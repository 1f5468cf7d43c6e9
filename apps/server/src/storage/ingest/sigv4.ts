/**
 * Temporary S3 credentials for docks that upload media themselves, and the AWS Signature V4 check of
 * their requests. The server issues each dock an access key id, secret and session token scoped to that
 * dock's object prefix and expiring; a request is accepted only when the signature the server computes
 * with the issued secret (via @smithy/signature-v4) equals the one the client sent, the session token
 * matches, the credentials have not expired and the object key lies under the dock's prefix. The body's
 * hash is returned so the caller checks the received bytes against the signed hash before storing.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';

export interface IssuedCredentials {
  accessKeyId: string;
  secret: string;
  sessionToken: string;
  /** Object keys this dock may write must start with this prefix. */
  prefix: string;
  /** Expiry, unix seconds. */
  expire: number;
  owner: string;
}

export interface SignedRequest {
  method: string;
  /** Path as received, without the query string (e.g. `/bucket/prefix/file.jpg`). */
  path: string;
  query: Record<string, string>;
  /** Header names in lower case. */
  headers: Record<string, string>;
}

export type VerifyResult =
  | { ok: true; credentials: IssuedCredentials; payloadHash: string }
  | { ok: false; reason: 'malformed' | 'unknown-key' | 'expired' | 'token' | 'prefix' | 'signature' };

type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** A sha-256 (plain or keyed) with the interface @smithy/signature-v4 expects. */
export class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** Issues and verifies dock upload credentials; kept in memory (a restart makes docks ask again). */
export class UploadCredentials {
  private readonly byKey = new Map<string, IssuedCredentials>();

  constructor(
    private readonly region: string,
    private readonly now: () => number = () => Date.now(),
  ) {}

  issue(owner: string, prefix: string, ttlSeconds: number): IssuedCredentials {
    this.forgetExpired();
    const issued: IssuedCredentials = {
      accessKeyId: `DJI${randomBytes(10).toString('hex').toUpperCase()}`,
      secret: randomBytes(30).toString('base64url'),
      sessionToken: randomBytes(32).toString('base64url'),
      prefix,
      expire: Math.floor(this.now() / 1000) + ttlSeconds,
      owner,
    };
    this.byKey.set(issued.accessKeyId, issued);
    return issued;
  }

  /** Checks a request's SigV4 Authorization header against the issued credentials for `objectKey`. */
  async verify(request: SignedRequest, objectKey: string): Promise<VerifyResult> {
    const match = AUTH.exec(request.headers.authorization ?? '');
    const amzDate = request.headers['x-amz-date'];
    const payloadHash = request.headers['x-amz-content-sha256'];
    if (!match || !amzDate || !payloadHash) return { ok: false, reason: 'malformed' };
    const [, keyId, day, region, signedList, signature] = match as unknown as [string, string, string, string, string, string];
    if (region !== this.region || !amzDate.startsWith(day)) return { ok: false, reason: 'malformed' };
    const credentials = this.byKey.get(keyId);
    if (!credentials) return { ok: false, reason: 'unknown-key' };
    if (credentials.expire * 1000 <= this.now()) return { ok: false, reason: 'expired' };
    if (request.headers['x-amz-security-token'] !== credentials.sessionToken) return { ok: false, reason: 'token' };
    if (!objectKey.startsWith(credentials.prefix) || objectKey.includes('..')) return { ok: false, reason: 'prefix' };
    const signed = signedList.split(';');
    if (!signed.includes('host') || !signed.includes('x-amz-date')) return { ok: false, reason: 'malformed' };
    const headers: Record<string, string> = {};
    for (const name of signed) {
      const value = request.headers[name];
      if (value === undefined) return { ok: false, reason: 'malformed' };
      headers[name] = value;
    }
    const signingDate = parseAmzDate(amzDate);
    if (!signingDate) return { ok: false, reason: 'malformed' };
    const signer = new SignatureV4({
      credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secret, sessionToken: credentials.sessionToken },
      region: this.region,
      service: 's3',
      sha256: NodeSha256,
      uriEscapePath: false,
      applyChecksum: false,
    });
    const expected = await signer.sign(
      { method: request.method, protocol: 'http:', hostname: headers.host ?? '', path: request.path, query: request.query, headers },
      { signingDate, signableHeaders: new Set(signed) },
    );
    const got = /Signature=([0-9a-f]{64})$/.exec(expected.headers.authorization ?? expected.headers.Authorization ?? '')?.[1] ?? '';
    if (got.length !== signature.length || !timingSafeEqual(Buffer.from(got), Buffer.from(signature))) {
      return { ok: false, reason: 'signature' };
    }
    return { ok: true, credentials, payloadHash };
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [key, issued] of this.byKey) if (issued.expire * 1000 <= now) this.byKey.delete(key);
  }
}

/** True when `body` matches the signed payload hash (unsigned payloads are not accepted). */
export function payloadMatches(payloadHash: string, body: Uint8Array): boolean {
  if (!/^[0-9a-f]{64}$/.test(payloadHash)) return false;
  return createHash('sha256').update(body).digest('hex') === payloadHash;
}

function parseAmzDate(value: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return undefined;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}
