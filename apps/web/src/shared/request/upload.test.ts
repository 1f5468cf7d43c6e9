import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { calls, callUrl, ResultCode, type Firmware } from '@nest/contracts';
import { clearToken, saveToken } from '../cookie';
import { setNotifier, type Notifier } from '../notify';
import { RequestError, call, resetRequestState } from './index';

// The notifier is module state shared with the other test files of this worker: give it back after each test.
afterEach(() => setNotifier(null));

/** A scripted XMLHttpRequest: the test drives upload progress, the answer and failures. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  body: unknown = null;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((e: ProgressEvent) => void) | null; onload: (() => void) | null } = { onprogress: null, onload: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  onprogress: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  // Test controls.
  sent(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  answer(status: number, body: unknown) {
    this.upload.onload?.();
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

const FIELDS = { type: 17, version_code: 3, version_name: '1.0.3', description: '说明', description_en: 'Notes' };
const file = () => new File([new Uint8Array([1, 2, 3])], 'nest.wkimg');
/** The package /rom/add answers (calls check their answers in tests). */
const firmware = (id: string): Firmware => ({
  id, type: 17, version_code: 3, version_name: '1.0.3', state: 10, description: '说明', description_en: 'Notes',
  file_name: 'nest.wkimg', size_kb: 1, md5: '', sha256: '', url: '', create_time: 1, modified_time: 1,
});
/** What fetch answers: the package for /rom/add, a page of it for /rom/list. */
const byFetch = (url: string) => (url.endsWith('/rom/list') ? { list: [firmware('by fetch')], total: 1 } : firmware('by fetch'));

describe('upload progress (XMLHttpRequest path)', () => {
  let errors: string[];
  beforeEach(async () => {
    resetRequestState();
    errors = [];
    const n: Notifier = { error: (t) => errors.push(t), warning: () => {}, success: () => {}, info: () => {}, alert: () => {}, confirm: () => {} };
    setNotifier(n);
    await saveToken('tok-upload');
    FakeXhr.last = null;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    vi.stubGlobal('fetch', vi.fn(async (url: string) => new Response(JSON.stringify({ code: 2000, msg: '', data: byFetch(url) }))));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    clearToken();
  });

  it('sends the signed multipart form by XHR, reports fractions and answers the envelope data', async () => {
    const seen: number[] = [];
    const p = call('romAdd', FIELDS, { files: { file: file() }, onUploadProgress: (f) => seen.push(f) });
    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(callUrl(calls.romAdd));
    const form = xhr.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get('version_code')).toBe('3');
    expect((form.get('file') as File).name).toBe('nest.wkimg');
    expect(form.get('token')).toBe('tok-upload');
    // The text fields, the signature among them, then the file: the server checks them before the file.
    const names = [...form.keys()];
    expect(names.at(-1)).toBe('file');
    expect(names.filter((n) => n === 'file')).toHaveLength(1);
    expect(names).toContain('pmd');
    expect(names).toEqual(expect.arrayContaining(['app_type', 'os_timestamp', 'token', 'type', 'version_code', 'version_name', 'description', 'description_en']));
    xhr.sent(250, 1000);
    xhr.sent(1000, 1000);
    xhr.answer(200, { code: 2000, msg: '', data: firmware('r1') });
    await expect(p).resolves.toEqual(firmware('r1'));
    expect(seen).toEqual([0, 0.25, 1, 1]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('keeps a slow upload alive while it progresses, and times out once it stalls', async () => {
    vi.useFakeTimers();
    const slow = call('romAdd', FIELDS, { files: { file: file() }, timeoutMs: 1000, onUploadProgress: () => {} });
    const xhr = FakeXhr.last!;
    for (let i = 1; i <= 10; i++) {
      await vi.advanceTimersByTimeAsync(800);
      xhr.sent(i * 100, 1000);
    }
    expect(xhr.aborted).toBe(false);
    xhr.answer(200, { code: 2000, msg: '', data: firmware('ok') });
    await expect(slow).resolves.toEqual(firmware('ok'));

    const stalled = call('romAdd', FIELDS, { files: { file: file() }, timeoutMs: 1000, onUploadProgress: () => {} });
    const caught = stalled.catch((e: unknown) => e);
    const second = FakeXhr.last!;
    second.sent(10, 1000);
    await vi.advanceTimersByTimeAsync(999);
    expect(second.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(second.aborted).toBe(true);
    const err = (await caught) as RequestError;
    expect(err).toBeInstanceOf(RequestError);
    expect(err.kind).toBe('timeout');
    expect(errors).toEqual([err.text]);
  });

  it('fails like fetch: network error, refusal code, HTTP 413 without envelope, caller abort', async () => {
    const net = call('romAdd', FIELDS, { files: { file: file() }, onUploadProgress: () => {} }).catch((e: unknown) => e);
    FakeXhr.last!.onerror?.();
    expect(await net).toMatchObject({ kind: 'network' });

    const refused = call('romAdd', FIELDS, { files: { file: file() }, onUploadProgress: () => {} }).catch((e: unknown) => e);
    FakeXhr.last!.answer(200, { code: ResultCode.BAD_REQUEST, msg: '不是 .wkimg 固件包', data: null });
    expect(await refused).toMatchObject({ kind: 'code', code: ResultCode.BAD_REQUEST, text: '不是 .wkimg 固件包' });

    const big = call('romAdd', FIELDS, { files: { file: file() }, onUploadProgress: () => {} }).catch((e: unknown) => e);
    FakeXhr.last!.answer(413, 'too large');
    expect(await big).toMatchObject({ kind: 'http', status: 413 });

    const controller = new AbortController();
    const cancelled = call('romAdd', FIELDS, { files: { file: file() }, signal: controller.signal, onUploadProgress: () => {} }).catch((e: unknown) => e);
    controller.abort();
    expect(FakeXhr.last!.aborted).toBe(true);
    expect(await cancelled).toMatchObject({ name: 'AbortError' });
    expect(errors).toHaveLength(3);
  });

  it('uses fetch when no progress is asked for, or for a form-encoded call', async () => {
    await expect(call('romAdd', FIELDS, { files: { file: file() } })).resolves.toEqual(firmware('by fetch'));
    await expect(call('romList', { page: 0, size: 20 }, { onUploadProgress: () => {} })).resolves.toEqual({ list: [firmware('by fetch')], total: 1 });
    expect(FakeXhr.last).toBeNull();
  });
});
