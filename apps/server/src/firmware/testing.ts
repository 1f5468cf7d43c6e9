import { calls, callUrl, type CallName, type Envelope } from '@nest/contracts';
import type { FastifyInstance } from 'fastify';
import { browserPayload, type Fields, type TestClient } from '../../test/helpers.js';

export interface FilePart {
  field: string;
  name: string;
  bytes: Uint8Array;
  type?: string;
}

/** A multipart body as the browser sends it: the signed common and call fields, then the files. */
export function multipartBody(name: CallName, fields: Fields, token: string, files: readonly FilePart[]): { body: Buffer; contentType: string } {
  const boundary = `----nest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of browserPayload(name, fields, token)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.from(f.bytes),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Sends a multipart call as `client`. */
export async function sendMultipart<D = unknown>(
  client: TestClient,
  name: CallName,
  fields: Fields,
  files: readonly FilePart[],
  app: FastifyInstance = client.server.app,
): Promise<{ status: number; body: Envelope<D> }> {
  const { body, contentType } = multipartBody(name, fields, client.token, files);
  const res = await app.inject({
    method: 'POST',
    url: callUrl(calls[name], client.server.config.bases),
    headers: { 'content-type': contentType },
    payload: body,
  });
  return { status: res.statusCode, body: res.json<Envelope<D>>() };
}
