import { describe, expect, it } from 'vitest';
import { buildWkimg } from '@nest/formats';
import { checkFirmwareFile, megabytes } from './fileCheck';

/** Any digest will do: the browser does not check the payload's. */
const fakeDigest = () => 'a'.repeat(64);
const pkg = (payload = new Uint8Array(1000).fill(7)) =>
  buildWkimg({ type: 17, version_code: 42, version_name: '4.2.0', model: 'WK-1' }, payload, fakeDigest);
const asFile = (bytes: Uint8Array, name = 'nest.wkimg') => new File([new Uint8Array(bytes)], name);

describe('firmware file pre-check', () => {
  it('accepts a whole package and reads its header', async () => {
    const r = await checkFirmwareFile(asFile(pkg()));
    expect(r).toEqual({ ok: true, header: expect.objectContaining({ type: 17, version_code: 42, version_name: '4.2.0', model: 'WK-1', payload_size: 1000 }) });
    // The extension in any case.
    expect((await checkFirmwareFile(asFile(pkg(), 'NEST.WKIMG'))).ok).toBe(true);
  });

  it('refuses by name, emptiness and size before reading', async () => {
    expect(await checkFirmwareFile(asFile(pkg(), 'nest.bin'))).toEqual({ ok: false, problem: 'name' });
    expect(await checkFirmwareFile(asFile(new Uint8Array(0)))).toEqual({ ok: false, problem: 'empty' });
    expect(await checkFirmwareFile(asFile(pkg()), 100)).toEqual({ ok: false, problem: 'tooLarge' });
  });

  it('refuses by content: wrong first bytes, broken header, wrong length', async () => {
    expect(await checkFirmwareFile(asFile(new TextEncoder().encode('PK\u0003\u0004 a zip renamed')))).toEqual({ ok: false, problem: 'magic' });
    const broken = pkg();
    broken[12] = 0x5b; // the header's JSON no longer parses as an object
    broken[13] = 0x5d;
    expect(await checkFirmwareFile(asFile(broken))).toMatchObject({ ok: false, problem: 'header' });
    const good = pkg();
    expect(await checkFirmwareFile(asFile(good.subarray(0, good.length - 1)))).toEqual({ ok: false, problem: 'size' });
    expect(await checkFirmwareFile(asFile(Uint8Array.from([...good, 1])))).toEqual({ ok: false, problem: 'size' });
  });

  it('words limits in MB', () => {
    expect(megabytes(512 * 1024 * 1024)).toBe('512 MB');
  });
});
