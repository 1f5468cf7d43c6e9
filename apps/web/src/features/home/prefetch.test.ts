import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let token = 'tok-1';
let funList: string[] = ['super_administrator'];
/** The device list says it has two pages (201 devices, 200 a page) and answers one device a page; every other call answers its name. */
const call = vi.fn(async (name: string, fields?: { page?: number }) =>
  name === 'deviceList' ? { list: [{ sn_id: `N${fields?.page ?? 0}` }], total: 201 } : { call: name },
);
vi.mock('../../shared/request', () => ({ call: (name: string, fields?: { page?: number }) => call(name, fields) }));
vi.mock('../../shared/cookie', () => ({ getToken: () => token }));
vi.mock('../../shared/session', () => ({ getUser: () => ({ fun_list: funList }) }));

const fetchMock = vi.fn(async (url: string) => new Response(JSON.stringify({ url: url.split('?')[0] }), { status: 200 }));
const { prefetchHomeData } = await import('./prefetch');
const { clearFirstReads, takeFirstRead } = await import('../../shared/fleet');

describe('the data screen reads started at sign-in', () => {
  beforeEach(() => {
    token = 'tok-1';
    funList = ['super_administrator'];
    call.mockClear();
    fetchMock.mockClear();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    clearFirstReads();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('starts every first read once and hands each out once', async () => {
    prefetchHomeData();
    expect(call.mock.calls.map(([name]) => name).sort()).toEqual(['alarmStats', 'deviceList', 'taskList']);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    // The device list's first read is every page of it.
    await expect(takeFirstRead('deviceList')).resolves.toEqual({ list: [{ sn_id: 'N0' }, { sn_id: 'N1' }], total: 2 });
    expect(call.mock.calls.filter(([name]) => name === 'deviceList').map(([, fields]) => fields?.page)).toEqual([0, 1]);
    await expect(takeFirstRead('record')).resolves.toEqual({ url: '/api/static/equipment-record.json' });
    expect(takeFirstRead('deviceList')).toBeNull();
  });

  it('does not start the calls the user may not make', () => {
    funList = ['menu_home', 'device_list'];
    prefetchHomeData();
    expect(call.mock.calls.map(([name]) => name)).toEqual(['deviceList']);
    expect(takeFirstRead('alarms')).toBeNull();
  });

  it('hands out nothing to another session or after ten seconds', () => {
    prefetchHomeData();
    token = 'tok-2';
    expect(takeFirstRead('deviceList')).toBeNull();
    token = 'tok-1';
    expect(takeFirstRead('record')).toBeNull();

    vi.useFakeTimers();
    prefetchHomeData();
    vi.advanceTimersByTime(10_001);
    expect(takeFirstRead('deviceList')).toBeNull();
  });

  it('starts nothing when the screen of this session mounted first and read for itself', () => {
    expect(takeFirstRead('deviceList')).toBeNull();
    prefetchHomeData();
    expect(call).not.toHaveBeenCalled();
    // The next session's sign-in starts them again.
    token = 'tok-2';
    prefetchHomeData();
    expect(call).toHaveBeenCalled();
  });

  it('starts nothing without a token', () => {
    token = '';
    prefetchHomeData();
    expect(call).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
