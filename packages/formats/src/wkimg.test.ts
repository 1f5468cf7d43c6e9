import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildWkimg, hasWkimgMagic, parseWkimg } from './wkimg.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const header = { type: 17, version_code: 120, version_name: '1.2.0', model: 'WK-Nest' };

describe('.wkimg', () => {
  it('round-trips a package and points at its payload', () => {
    const payload = new Uint8Array([1, 2, 3, 4, 5]);
    const pkg = buildWkimg(header, payload, sha);
    const r = parseWkimg(pkg);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.header).toMatchObject({ ...header, payload_size: 5, payload_sha256: sha(payload) });
    expect([...pkg.subarray(r.payloadOffset)]).toEqual([1, 2, 3, 4, 5]);
    expect(hasWkimgMagic(pkg)).toBe(true);
  });

  it('refuses other files, broken headers and wrong lengths', () => {
    const pkg = buildWkimg(header, new Uint8Array(10), sha);
    expect(parseWkimg(new TextEncoder().encode('PK\x03\x04 not a firmware'))).toEqual({ ok: false, problem: 'magic' });
    expect(parseWkimg(pkg.subarray(0, pkg.length - 1))).toEqual({ ok: false, problem: 'size' });
    const longer = new Uint8Array(pkg.length + 1);
    longer.set(pkg);
    expect(parseWkimg(longer)).toEqual({ ok: false, problem: 'size' });
    const broken = pkg.slice();
    broken[13] = 0x7b; // corrupt the JSON
    broken[12] = 0x5b;
    expect(parseWkimg(broken)).toEqual({ ok: false, problem: 'header' });
    const huge = pkg.slice();
    new DataView(huge.buffer).setUint32(8, 1 << 30, false);
    expect(parseWkimg(huge)).toEqual({ ok: false, problem: 'header' });
  });

  it('checks the header from the first bytes and the full size alone', () => {
    const pkg = buildWkimg(header, new Uint8Array(1000), sha);
    const r = parseWkimg(pkg.subarray(0, 600), pkg.length);
    expect(r.ok).toBe(true);
    expect(parseWkimg(pkg.subarray(0, 600), pkg.length + 3).ok).toBe(false);
  });
});
