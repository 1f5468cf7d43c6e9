import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { ZoneKind, formatMmSs, missionLimitText, type LatLng, type Waypoint, type Zone } from '@nest/contracts';
import { routeEstimate, surveyFromSettings, surveyWaypointOptions, surveyWaypoints } from '@nest/geo';
import { installMatchMedia, installResizeObserver } from '../../../test/dom';
import { applyLang } from '../../../shared/i18n';
import type { PlanMapProps } from '../../../shared/map/PlanMap';

installMatchMedia();
installResizeObserver();

// The test DOM has no WebGL: the editor's map is left out (its last props are kept, to click on it); the side
// panel (estimate, issues) and the notes over the map are what is checked.
let planProps: PlanMapProps | null = null;
vi.mock('../../../shared/map/PlanMap', () => ({
  default: (props: PlanMapProps) => {
    planProps = props;
    return null;
  },
}));
const call = vi.fn();
vi.mock('../../../shared/request', () => ({
  call: (...args: unknown[]) => call(...args),
  RequestError: class extends Error {},
}));
vi.mock('../../../shared/notify', () => ({ notify: () => ({ success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() }) }));

const { default: EditWorkPage } = await import('./EditWorkPage');

const M_LAT = 111_320;
const HOME: LatLng = { lat: 22.5431, lng: 114.0579 };
const at = (east: number, north: number): LatLng => ({
  lat: Number((HOME.lat + north / M_LAT).toFixed(7)),
  lng: Number((HOME.lng + east / (M_LAT * Math.cos((HOME.lat * Math.PI) / 180))).toFixed(7)),
});
const fence = { id: 'F1', name: 'Fence', max_height: 150, boundary: [at(-1200, -1200), at(1200, -1200), at(1200, 1200), at(-1200, 1200)], sn_id: 'NEST-1' };
const device = { sn_id: 'NEST-1', name: 'Nest', airport_point: HOME };
const settings = { auto_speed: 8, max_speed: 12, default_height: 80, return_height: 100, finish_action: 20 as const };

/** The patrol as the server stores it: its est_time is geo's routeEstimate from the nest (missions tests). */
const patrolWps: Waypoint[] = [
  [300, 0, 60], [450, 250, 70], [300, 500, 80], [0, 550, 100], [-300, 400, 90], [-400, 100, 80], [-150, -250, 70],
].map(([e, n, h]) => ({ ...at(e!, n!), height: h! }));
const stored = (id: string, mission_type: 1 | 2, waypoints: Waypoint[], extra: Record<string, unknown> = {}) => ({
  id, name: id, fence_id: 'F1', f_title: 'Fence', mission_type, height_type: 0, exec_type: 0, camera_type: '6k', photo_type: 2,
  course_overlap: 80, lateral_overlap: 70, turn_distance: 0, angle: 0, interval_height: 0, elevation: false,
  ...settings, waypoints, ...routeEstimate({ ...settings, waypoints }, HOME), ...extra,
});

function answer(mission: ReturnType<typeof stored>) {
  call.mockImplementation(async (name: string) => {
    if (name === 'fenceList') return { list: [fence], total: 1 };
    if (name === 'deviceList') return { list: [device], total: 1 };
    if (name === 'missionInfo') return mission;
    throw new Error(`unexpected ${name}`);
  });
}

const page = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <EditWorkPage />
    </MemoryRouter>,
  );

describe('route editor estimate and input', () => {
  beforeEach(() => {
    call.mockReset();
  });
  afterEach(() => cleanup());

  it('shows the estimate the route list shows (the stored est_time) for the demo patrol', async () => {
    const m = stored('patrol', 1, patrolWps);
    answer(m);
    page('/editWork?mode=route&id=patrol');
    await waitFor(() => expect(screen.getByTestId('est-time').textContent).toBe(formatMmSs(m.est_time)));
  });

  it('shows the stored estimate for the demo survey (grid made from the nest, as the server makes it)', async () => {
    const area = [at(300, -500), at(600, -500), at(600, -300), at(300, -300)];
    const route = { ...settings, camera_type: '6k' as const, photo_type: 2 as const, course_overlap: 80, lateral_overlap: 70, angle: 0, turn_distance: 0, height_type: 0 as const, elevation: false, interval_height: 0 };
    const grid = surveyFromSettings(area, route, HOME).grid!;
    const { waypoints } = await surveyWaypoints(grid, surveyWaypointOptions(route, undefined, HOME));
    const m = stored('survey', 2, waypoints, { survey_polygon: area });
    answer(m);
    page('/editWork?mode=survey&id=survey');
    await waitFor(() => expect(screen.getByTestId('est-time').textContent).toBe(formatMmSs(m.est_time)));
  });

  it('asks the terrain-following tolerance (interval_height) only while the survey follows terrain, and saves it', async () => {
    const area = [at(300, -500), at(600, -500), at(600, -300), at(300, -300)];
    const saved: Record<string, unknown>[] = [];
    const m = stored('survey', 2, [], { survey_polygon: area, elevation: true, interval_height: 3 });
    call.mockImplementation(async (name: string, fields: Record<string, unknown>) => {
      if (name === 'fenceList') return { list: [fence], total: 1 };
      if (name === 'deviceList') return { list: [device], total: 1 };
      if (name === 'missionInfo') return m;
      if (name === 'missionEdit') {
        saved.push(fields);
        return m;
      }
      throw new Error(`unexpected ${name}`);
    });
    page('/editWork?mode=survey&id=survey');
    const field = await screen.findByTestId('terrain-tolerance');
    const input = field.querySelector('input') ?? (field as HTMLInputElement);
    expect(Number(input.value)).toBe(3);
    // Without terrain following the tolerance means nothing and is not asked.
    const follow = screen.getByRole('switch');
    fireEvent.click(follow);
    await waitFor(() => expect(screen.queryByTestId('terrain-tolerance')).toBeNull());
    fireEvent.click(follow);
    const again = await screen.findByTestId('terrain-tolerance');
    const typed = again.querySelector('input') ?? (again as HTMLInputElement);
    fireEvent.change(typed, { target: { value: '2.5' } });
    fireEvent.blur(typed);
    await act(async () => {
      fireEvent.click(screen.getByTestId('save'));
    });
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ elevation: true, interval_height: 2.5 });
  });

  it('keeps a cruise speed of 0 as typed, lists the range and does not save', async () => {
    answer(stored('patrol', 1, patrolWps));
    page('/editWork?mode=route&id=patrol');
    await waitFor(() => expect(screen.getByTestId('est-time').textContent).not.toBe(''));
    const input = screen.getByTestId('route-auto-speed').querySelector('input') ?? (screen.getByTestId('route-auto-speed') as HTMLInputElement);
    fireEvent.change(input, { target: { value: '0' } });
    fireEvent.blur(input);
    const text = missionLimitText('auto_speed');
    await waitFor(() => expect(screen.getAllByTestId('issue').map((e) => e.textContent)).toContainEqual(expect.stringMatching(new RegExp(`^(${text.zh}|${text.en})$`))));
    expect(input.value).toBe('0');
    expect((screen.getByTestId('save') as HTMLButtonElement).disabled).toBe(true);
  });

  it('states the fence vertex rule once, with the count', async () => {
    const short = { ...fence, id: 'F2', boundary: fence.boundary.slice(0, 2) };
    call.mockImplementation(async (name: string) => {
      if (name === 'fenceList') return { list: [short], total: 1 };
      if (name === 'deviceList') return { list: [device], total: 1 };
      throw new Error(`unexpected ${name}`);
    });
    page('/editWork?mode=fence&id=F2');
    await waitFor(() => expect(screen.getByTestId('issues').textContent).toMatch(/当前 2 个|has 2/));
    const text = screen.getByTestId('issues').textContent ?? '';
    expect(text.match(/3 个|at least 3/g)).toHaveLength(1);
  });
});

describe('route editor: zones and the fence', () => {
  const square = (c: LatLng, half: number): LatLng[] => {
    const d = (e: number, n: number) => ({
      lat: c.lat + n / M_LAT,
      lng: c.lng + e / (M_LAT * Math.cos((c.lat * Math.PI) / 180)),
    });
    return [d(-half, -half), d(half, -half), d(half, half), d(-half, half)];
  };
  const zone = (id: string, type: number, name: Zone['name'], paths: LatLng[]): Zone => ({ id, type, name, paths, stroke_color: '', solid_color: '', stroke_width: 2 });
  const ZONES: Zone[] = [
    // Around the patrol's waypoint 2, across the leg from waypoint 4 to 5, and a work zone over everything.
    zone('r1', ZoneKind.RESTRICTED, { zh: '河道', en: 'River' }, square(at(450, 250), 50)),
    zone('n1', ZoneKind.NO_FLY, { zh: '体育场', en: 'Stadium' }, square(at(-150, 475), 30)),
    zone('w1', ZoneKind.WORK, { zh: '作业区', en: 'Works' }, square(HOME, 3000)),
  ];

  beforeEach(() => {
    call.mockReset();
    planProps = null;
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ types: [], list: ZONES }), { status: 200 })));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    act(() => applyLang('zh'));
  });

  it('lists a waypoint inside, and a leg across, a no-fly or restricted zone with the zone kind and name, with the other checks', async () => {
    answer(stored('patrol', 1, patrolWps));
    page('/editWork?mode=route&id=patrol');
    await waitFor(() => expect(screen.getAllByTestId('issue').map((e) => e.textContent)).toEqual(['第 2 个航点在限飞区「河道」内', '第 4 到第 5 个航点之间的航线穿过禁飞区「体育场」']));
    expect((screen.getByTestId('save') as HTMLButtonElement).disabled).toBe(true);
    expect(planProps?.zones?.map((z) => z.id)).toEqual(['r1', 'n1', 'w1']);
    // Waypoint 2 and the leg from 4 to 5 are drawn in red.
    expect([...(planProps?.edit?.badPoints ?? [])]).toEqual([1]);
    expect([...(planProps?.edit?.badEdges ?? [])]).toEqual([3]);

    act(() => applyLang('en'));
    await waitFor(() =>
      expect(screen.getAllByTestId('issue').map((e) => e.textContent)).toEqual([
        'Waypoint 2 is inside the restricted zone "River"',
        'The leg from waypoint 4 to 5 crosses the no-fly zone "Stadium"',
      ]),
    );
    // In the same list as the other checks (a field out of its range comes first).
    const input = screen.getByTestId('route-auto-speed').querySelector('input') ?? (screen.getByTestId('route-auto-speed') as HTMLInputElement);
    fireEvent.change(input, { target: { value: '0' } });
    fireEvent.blur(input);
    await waitFor(() => expect(screen.getAllByTestId('issue').map((e) => e.textContent)).toEqual([
      missionLimitText('auto_speed').en,
      'Waypoint 2 is inside the restricted zone "River"',
      'The leg from waypoint 4 to 5 crosses the no-fly zone "Stadium"',
    ]));
  });

  it('says once, not in a stack, why a click outside the fence adds no waypoint', async () => {
    answer(stored('patrol', 1, patrolWps.slice(0, 3)));
    page('/editWork?mode=route&id=patrol');
    await waitFor(() => expect(planProps?.edit?.points).toHaveLength(3));
    const outside = at(5000, 0);
    act(() => planProps!.edit!.onAdd!(outside));
    const note = await screen.findByTestId('outside-fence');
    expect(note.textContent).toBe('未添加：该点在围栏「Fence」之外，航点须在围栏内');
    expect(planProps!.edit!.points).toHaveLength(3);
    act(() => planProps!.edit!.onAdd!(outside));
    act(() => planProps!.edit!.onAdd!(outside));
    expect(screen.getAllByTestId('outside-fence')).toHaveLength(1);
    expect(screen.getByTestId('outside-fence').getAttribute('data-count')).toBe('3');
    act(() => applyLang('en'));
    expect(screen.getByTestId('outside-fence').textContent).toBe('Not added: the point is outside the fence "Fence". Waypoints go inside it.');
    // A click inside adds the waypoint and clears the note.
    act(() => planProps!.edit!.onAdd!(at(100, 100)));
    expect(planProps!.edit!.points).toHaveLength(4);
    expect(screen.queryByTestId('outside-fence')).toBeNull();
  });

  it('the route form asks for the task name only; the fence form for the name and the device', async () => {
    answer(stored('patrol', 1, patrolWps));
    page('/editWork?mode=route&id=patrol');
    await waitFor(() => expect(screen.getByTestId('route-name')).toBeTruthy());
    fireEvent.change(screen.getByTestId('route-name'), { target: { value: ' ' } });
    await waitFor(() => expect(screen.getByTestId('issues').textContent).toContain('请填写任务名称'));
    expect(screen.getByTestId('issues').textContent).not.toContain('设备');
    cleanup();

    answer(stored('patrol', 1, patrolWps));
    page('/editWork?mode=fence&id=F1');
    await waitFor(() => expect(screen.getByTestId('fence-name')).toBeTruthy());
    fireEvent.change(screen.getByTestId('fence-name'), { target: { value: '' } });
    await waitFor(() => expect(screen.getByTestId('issues').textContent).toContain('请填写围栏名称并选择绑定设备'));
  });
});

describe('route editor: strip routes and routes longer than one battery', () => {
  beforeEach(() => {
    call.mockReset();
  });
  afterEach(() => cleanup());

  const line = [at(-900, -600), at(900, -600), at(900, 700)];

  it('opens a strip route with its line and width, draws the band and the generated lines, and shows the estimate', async () => {
    answer(stored('pipe', 1, [], { mission_type: 3, corridor_line: line, corridor_width: 120, camera_type: '6k' }) as ReturnType<typeof stored>);
    page('/editWork?mode=strip&id=pipe');
    await waitFor(() => expect(screen.getByTestId('est-lines').textContent).not.toBe('--'));
    const width = screen.getByTestId('strip-width').querySelector('input') ?? (screen.getByTestId('strip-width') as HTMLInputElement);
    expect(width.value).toBe('120');
    const ids = (planProps?.shapes ?? []).map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['band', 'course']));
    expect(planProps?.edit?.closed).toBe(false);
    expect(planProps?.edit?.points).toEqual(line);
    expect(screen.getByTestId('est-time').textContent).not.toBe('--');
  });

  it('offers to split a route the server refuses for its length, and saves it split', async () => {
    const request = await import('../../../shared/request');
    // The mocked RequestError is a plain Error subclass: the fields the editor reads are set on it.
    const refusal = Object.assign(new (request.RequestError as unknown as new (m: string) => Error)('too long'), {
      text: 'The route is longer than one flight',
      data: { issues: [{ code: 'route.needs_split', item: { kind: 'route' }, text: { zh: '', en: '' } }] },
    });
    const saved: Record<string, unknown>[] = [];
    const m = stored('pipe', 1, [], { mission_type: 3, corridor_line: line, corridor_width: 600, camera_type: '6k' }) as ReturnType<typeof stored>;
    call.mockImplementation(async (name: string, fields: Record<string, unknown>) => {
      if (name === 'fenceList') return { list: [fence], total: 1 };
      if (name === 'deviceList') return { list: [device], total: 1 };
      if (name === 'missionInfo') return m;
      if (name === 'missionEdit') {
        saved.push(fields);
        if (!fields.split) throw refusal;
        return m;
      }
      throw new Error(`unexpected ${name}`);
    });
    page('/editWork?mode=strip&id=pipe');
    await waitFor(() => expect(screen.getByTestId('est-flights').textContent).toMatch(/^\d+$/));
    const flights = Number(screen.getByTestId('est-flights').textContent);
    expect(flights).toBeGreaterThan(1);
    await act(async () => {
      fireEvent.click(screen.getByTestId('save'));
    });
    const split = await screen.findByTestId('save-split');
    expect(split.textContent?.replace(/\s/g, '')).toMatch(new RegExp(`(拆分为${flights}个架次|Splitinto${flights}flights)`));
    await act(async () => {
      fireEvent.click(split);
    });
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[0]).not.toHaveProperty('split');
    expect(saved[1]).toMatchObject({ split: true, mission_type: 3, line, corridor_width: 600 });
  });
});
