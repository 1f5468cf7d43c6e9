import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APP_CODE,
  APP_FLAVOR,
  APP_IDS,
  APP_TYPE,
  CODE_TEXT,
  HTTP_TEXT,
  ResultCode,
  calls,
  callUrl,
  pmdValueOf,
  signPmd,
} from '@nest/contracts';
import { clearToken, saveToken } from '../cookie';
import { setNotifier, type AlertOptions, type Notifier } from '../notify';
import { getUser, setLoginNavigator, setUser } from '../session';
import { t } from '../i18n';
import { makeUser } from '../../test/dom';
import { RequestError, call, resetRequestState } from './index';

// The notifier is module state shared with the other test files of this worker: give it back after each test.
afterEach(() => setNotifier(null));

interface Sent {
  url: string;
  body: URLSearchParams;
}

function stubNotifier() {
  const calls = { error: [] as string[], alerts: [] as { kind: string; opts: AlertOptions }[] };
  const n: Notifier = {
    error: (t) => calls.error.push(t),
    warning: () => {},
    success: () => {},
    info: () => {},
    alert: (kind, opts) => calls.alerts.push({ kind, opts }),
    confirm: (opts) => calls.alerts.push({ kind: 'confirm', opts }),
  };
  setNotifier(n);
  return calls;
}

function stubFetch(answer: (sent: Sent) => { status?: number; body: unknown }) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const s = { url, body: new URLSearchParams(init.body as URLSearchParams) };
      sent.push(s);
      const { status = 200, body } = answer(s);
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
    }),
  );
  return sent;
}

const TOKEN = 'token-abc-123';

describe('request layer', () => {
  let shown: ReturnType<typeof stubNotifier>;
  beforeEach(async () => {
    window.history.replaceState(null, '', '/nest/home');
    localStorage.clear();
    resetRequestState();
    shown = stubNotifier();
    await saveToken(TOKEN);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    clearToken();
  });

  it('posts the common fields, the call fields and a pmd that contracts signPmd reproduces', async () => {
    const sent = stubFetch(() => ({ body: { code: 2000, msg: 'ok', data: { list: [], total: 0 } } }));
    const data = await call('deviceList', { type: 10, page: 2, size: 50, search: 'nest' });
    expect(data).toEqual({ list: [], total: 0 });
    expect(sent).toHaveLength(1);
    const { url, body } = sent[0]!;
    expect(url).toBe(callUrl(calls.deviceList));
    expect(body.get('app_type')).toBe(String(APP_TYPE));
    expect(body.get('app_ids')).toBe(APP_IDS);
    expect(body.get('app_code')).toBe(APP_CODE);
    expect(body.get('app_flavor')).toBe(APP_FLAVOR);
    expect(body.get('os_language')).toBe('zh');
    expect(body.get('token')).toBe(TOKEN);
    expect(Number(body.get('os_timestamp'))).toBeGreaterThan(Date.now() - 10_000);
    expect(body.get('type')).toBe('10');
    expect(body.get('page')).toBe('2');
    expect(body.get('search')).toBe('nest');
    // deviceList: pmd value is page concatenated with type, no timestamp flag.
    expect(body.get('pmd')).toBe(signPmd({ token: TOKEN, pmdValue: '210' }));
  });

  it('signs timestamp + token + joint fields for calls with the timestamp flag', async () => {
    const sent = stubFetch(() => ({ body: { code: 2201, msg: '', data: makeUser([]) } }));
    const fields = {
      u_id: 'u1', state: 10, start_time: 1, end_time: 4765104000, nick: 'N', phone: '13800000000', email: '',
      password: '', team: '', notes: '', in_com_id: 'c1', fun_json: '["a"]',
    };
    await call('userEdit', fields);
    const body = sent[0]!.body;
    const ts = body.get('os_timestamp')!;
    const strings = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
    expect(body.get('pmd')).toBe(signPmd({ token: TOKEN, pmdValue: pmdValueOf(strings, calls.userEdit.pmd), timestamp: ts }));
    expect(body.get('pmd')).toBe(signPmd({ token: TOKEN, pmdValue: 'u1N13800000000' + '1' + '4765104000', timestamp: ts }));
  });

  it('uses window.__NEST_BASES__ to move a service', async () => {
    window.__NEST_BASES__ = { user: 'https://users.example/api/u/' };
    const sent = stubFetch(() => ({ body: { code: 2000, msg: '', data: makeUser([]) } }));
    await call('userInfo', {});
    expect(sent[0]!.url).toBe('https://users.example/api/u/user/info');
    delete window.__NEST_BASES__;
  });

  it('resolves 44020 quietly with data', async () => {
    stubFetch(() => ({ body: { code: ResultCode.OK_QUIET, msg: 'x', data: makeUser([]) } }));
    await expect(call('userInfo', {})).resolves.toEqual(makeUser([]));
    expect(shown.error).toEqual([]);
  });

  it('refuses, in tests and development, a successful answer that does not match the call\'s schema', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => ({ body: { code: 2000, msg: '', data: { list: [{ id: 1 }], total: 1 } } }));
    const err = await call('deviceList', { type: 10, page: 0, size: 20 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect(err).toMatchObject({ kind: 'response', text: t('request.badResponse'), code: 2000 });
    expect(shown.error).toEqual([t('request.badResponse')]);
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });

  it('rejects other codes with the server msg and shows it', async () => {
    stubFetch(() => ({ body: { code: 40010, msg: '账号或密码错误', data: null } }));
    const err = await call('userInfo', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect((err as RequestError).message).toBe('账号或密码错误');
    expect((err as RequestError).code).toBe(40010);
    expect(shown.error).toEqual(['账号或密码错误']);
  });

  it('quiet calls reject without showing anything', async () => {
    stubFetch(() => ({ body: { code: 40001, msg: 'bad', data: null } }));
    await expect(call('userInfo', {}, { quiet: true })).rejects.toThrow('bad');
    expect(shown.error).toEqual([]);
  });

  it('shows the contracts HTTP texts for 404, 401 and 500', async () => {
    for (const status of [404, 401, 500] as const) {
      stubFetch(() => ({ status, body: 'nope' }));
      await expect(call('userInfo', {})).rejects.toThrow(HTTP_TEXT[status].zh);
    }
    expect(shown.error).toEqual([HTTP_TEXT[404].zh, HTTP_TEXT[401].zh, HTTP_TEXT[500].zh]);
  });

  it('shows a localised network failure', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(call('userInfo', {})).rejects.toMatchObject({ kind: 'network' });
    expect(shown.error).toHaveLength(1);
  });

  it('times out with a localised message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
      ),
    );
    await expect(call('userInfo', {}, { timeoutMs: 20 })).rejects.toMatchObject({ kind: 'timeout' });
    expect(shown.error).toEqual(['请求超时，请稍后重试']);
  });

  it('40263 on two simultaneous calls shows ONE confirmation, then clears the session and goes to login', async () => {
    const toLogin = vi.fn();
    setLoginNavigator(toLogin);
    setUser({
      u_id: 'u', nick: 'n', phone: '13800000000', email: '', company: '', in_com: { id: '', name: '' }, fun_list: [],
      state: 10, start_time: 0, end_time: 0, team: '', notes: '', password: '', token: TOKEN,
    });
    stubFetch(() => ({ body: { code: ResultCode.LOGIN_EXPIRED, msg: 'expired', data: null } }));
    const results = await Promise.allSettled([call('userInfo', {}), call('deviceList', { type: 0, page: 0, size: 200 })]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(shown.alerts).toHaveLength(1);
    expect(shown.alerts[0]!.opts.content).toBe(CODE_TEXT[ResultCode.LOGIN_EXPIRED].zh);
    expect(shown.error).toEqual([]);
    // Nothing is cleared until the user confirms.
    expect(getUser()).not.toBeNull();
    shown.alerts[0]!.opts.onOk!();
    expect(getUser()).toBeNull();
    expect(localStorage.getItem('userInfo')).toBeNull();
    expect(document.cookie).not.toContain('nest_token=');
    expect(toLogin).toHaveBeenCalledTimes(1);
    setLoginNavigator(null);
  });
});
