import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STATIC_RESOURCES, type EquipmentRecord } from '@nest/contracts';
import { Refetcher, StaticError, checkingOptions, fetchStatic, kpiTiles, kpisOf, panelsOfTopics, rankingValue } from './dashboard';

const record: EquipmentRecord = {
  devices: { total: 5, online: 3, offline: 2, connected: 1, flying: 1 },
  inspection: {
    sorties_total: 42,
    sorties_today: 4,
    flight_seconds_total: 3723.6,
    distance_total: 12345.6,
    results_total: 310,
    results_today: 17,
    results_by_type: { '10': 300, '15': 6, '20': 4 },
    alarms_pending: 2,
  },
  records: [],
  generated_at: 1,
};

describe('KPI strip from the equipment record', () => {
  it('maps every figure raw, and 370 pending wins over the record', () => {
    expect(kpisOf(record)).toEqual({
      devicesOnline: 3,
      devicesTotal: 5,
      devicesFlying: 1,
      sortiesToday: 4,
      sortiesTotal: 42,
      flightSecondsTotal: 3723.6,
      distanceTotal: 12345.6,
      resultsToday: 17,
      resultsTotal: 310,
      alarmsPending: 2,
    });
    expect(kpisOf(record, 7).alarmsPending).toBe(7);
    expect(kpisOf(record, null).alarmsPending).toBe(2);
  });

  it('reads distance in km from 1000 m, time as hh:mm:ss, keeping the raw value', () => {
    const tiles = kpiTiles(kpisOf(record));
    expect(tiles.distanceTotal).toEqual({ name: 'distance-total', value: 12345.6, text: '12.35', unit: 'km' });
    expect(tiles.flightSecondsTotal).toMatchObject({ name: 'flight-seconds-total', value: 3723.6, text: '01:02:03' });
    expect(tiles.sortiesTotal).toMatchObject({ name: 'sorties-total', value: 42, text: '42' });
    expect(kpiTiles(kpisOf({ ...record, inspection: { ...record.inspection, distance_total: 999 } })).distanceTotal).toMatchObject({ text: '999', unit: 'm' });
    const names = Object.values(tiles).map((t) => t.name);
    for (const n of ['devices-online', 'devices-total', 'sorties-total', 'sorties-today', 'distance-total', 'flight-seconds-total', 'results-total', 'results-today', 'alarms-pending']) {
      expect(names).toContain(n);
    }
  });

  it('reads ranking values with the unit of their type', () => {
    expect(rankingValue(20, 1500, 'en')).toEqual({ value: '1.50', unit: 'km' });
    expect(rankingValue(10, 3, 'zh')).toEqual({ value: '3', unit: '次' });
    expect(rankingValue(30, 12, 'en')).toEqual({ value: '12', unit: 'results' });
  });

  it('takes ranking tabs from the checking-type resource, else the enum', () => {
    expect(checkingOptions([{ value: 20, label: { zh: '里程', en: 'Mileage' } }, { value: 99, label: { zh: 'x', en: 'x' } }], 'en')).toEqual([{ value: 20, label: 'Mileage' }]);
    expect(checkingOptions(null, 'en').map((o) => o.value)).toEqual([10, 20, 30]);
  });
});

describe('static resources', () => {
  it('GETs with the token header and answers the JSON', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ type: 20, list: [] }), { status: 200 }));
    await expect(fetchStatic(STATIC_RESOURCES.inspectionLeaderboard, 'tok', { type: 20, size: 10 }, undefined, fetchImpl)).resolves.toEqual({ type: 20, list: [] });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/static/inspection-leaderboard.json?type=20&size=10');
    expect(init.method).toBe('GET');
    expect((init.headers as Record<string, string>).token).toBe('tok');
  });
  it('rejects a 401 with its status', async () => {
    const fetchImpl = vi.fn(async () => new Response('', { status: 401 }));
    await expect(fetchStatic(STATIC_RESOURCES.equipmentRecord, '', {}, undefined, fetchImpl)).rejects.toEqual(new StaticError(401));
  });
});

describe('throttled refetch on push 380', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('maps topics to the panels they make stale', () => {
    expect(panelsOfTopics(['tasks'])).toEqual(['tasks']);
    expect(panelsOfTopics(['results', 'sorties']).sort()).toEqual(['messages', 'ranking', 'record']);
    expect(panelsOfTopics(['nonsense'])).toEqual([]);
  });

  it('loads at once, then gathers a burst into one load per gap', async () => {
    const loads: string[][] = [];
    const r = new Refetcher((p) => void loads.push([...p].sort()), 3000, () => Date.now());
    r.request(panelsOfTopics(['results']));
    expect(loads).toEqual([['ranking', 'record']]);
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 10; i++) {
      r.request(panelsOfTopics(['alarms']));
      r.request(panelsOfTopics(['tasks']));
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(loads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(loads).toHaveLength(2);
    expect(loads[1]).toEqual(['alarms', 'messages', 'record', 'tasks']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(loads).toHaveLength(2);
    r.request([]);
    expect(loads).toHaveLength(2);
  });

  it('never loads while the previous load runs, and stops for good', async () => {
    let finish: () => void = () => undefined;
    const load = vi.fn(() => new Promise<void>((res) => (finish = res)));
    const r = new Refetcher(load, 1000, () => Date.now());
    r.request(['record']);
    await vi.advanceTimersByTimeAsync(5000);
    r.request(['tasks']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(load).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(2);
    finish();
    r.stop();
    r.request(['record']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('timed task list', () => {
  it('orders waiting tasks by next run first, then the rest newest first', async () => {
    const { orderTasks, repeatText } = await import('./Panels');
    const task = (id: string, task_state: number, task_tms: number) => ({ id, task_state, task_tms }) as never;
    expect(orderTasks([task('a', 10, 50), task('b', 1, 300), task('c', 1, 100), task('d', 41, 80)]).map((x: { id: string }) => x.id)).toEqual(['c', 'b', 'd', 'a']);
    const t = (key: string, vars?: Record<string, string | number>) => `${key}:${vars?.n ?? ''}`;
    expect(repeatText(0, t as never)).toBe('home.tasks.once:');
    expect(repeatText(1440, t as never)).toBe('home.tasks.everyDays:1');
    expect(repeatText(120, t as never)).toBe('home.tasks.everyHours:2');
    expect(repeatText(45, t as never)).toBe('home.tasks.every:45');
  });
});
