import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { NoFlyShape, formatDateTime, type LatLng, type NoFlyZone } from '@nest/contracts';
import { installMatchMedia, installResizeObserver } from '../../../test/dom';
import { applyLang } from '../../../shared/i18n';
import type { PlanMapProps } from '../../../shared/map/PlanMap';

installMatchMedia();
installResizeObserver();

// The test DOM has no WebGL: the map is left out and its last props kept (what it would draw).
let planProps: PlanMapProps | null = null;
vi.mock('../../../shared/map/PlanMap', () => ({
  default: (props: PlanMapProps) => {
    planProps = props;
    return null;
  },
}));
const { RequestError, call, info } = vi.hoisted(() => ({
  info: vi.fn(),
  RequestError: class extends Error {
    constructor(readonly text: string) {
      super(text);
    }
  },
  call: vi.fn(),
}));
vi.mock('../../../shared/request', () => ({ call: (...args: unknown[]) => call(...args), RequestError }));
// Confirmation boxes are answered OK at once (the import's list of no-fly zones).
vi.mock('../../../shared/notify', () => ({
  notify: () => ({ success: vi.fn(), error: vi.fn(), warning: vi.fn(), info, confirm: (o: { onOk?: () => unknown }) => void o.onOk?.() }),
}));

const { queryClient } = await import('../../../shared/query');
const { default: RoutePlanPage, documentOf } = await import('../RoutePlanPage');
const { exportPlanFile } = await import('@nest/formats');
const { default: NoFlyEditPage } = await import('./NoFlyEditPage');

const M_LAT = 111_320;
const HOME: LatLng = { lat: 22.5431, lng: 114.0579 };
const at = (east: number, north: number): LatLng => ({
  lat: HOME.lat + north / M_LAT,
  lng: HOME.lng + east / (M_LAT * Math.cos((HOME.lat * Math.PI) / 180)),
});
const square = (e: number, n: number, half: number): LatLng[] => [at(e - half, n - half), at(e + half, n - half), at(e + half, n + half), at(e - half, n + half)];

const NOW = Math.floor(Date.now() / 1000);
const fence = { id: 'F1', name: 'Fence A01', max_height: 150, boundary: square(0, 0, 1200), sn_id: 'NEST-1', user_name: 'admin', create_time: 1, modified_time: 1 };
const zone = (id: string, name: string, extra: Partial<NoFlyZone> = {}): NoFlyZone => ({
  id, name, reason: '上课时段', shape: NoFlyShape.POLYGON, boundary: square(0, 500, 40), center: null, radius: null, sn_id: '',
  valid_from: null, valid_to: null, active: true, user_name: 'admin', create_time: 1, modified_time: 1, ...extra,
});
const zones = [
  zone('z1', '实验小学'),
  zone('z2', 'Fair', { shape: NoFlyShape.CIRCLE, boundary: [], center: at(-600, 0), radius: 80, sn_id: 'NEST-1', valid_from: NOW + 86_400, active: false }),
  zone('z3', 'Old works', { valid_to: NOW - 86_400, active: false, boundary: square(600, -600, 30) }),
];
const mission = (id: string, name: string, waypoints: LatLng[]) => ({
  id, name, fence_id: 'F1', f_title: 'Fence A01', mission_type: 1, height_type: 0, exec_type: 0, camera_type: 'custom', photo_type: 2,
  course_overlap: 80, lateral_overlap: 70, turn_distance: 0, angle: 0, interval_height: 0, elevation: false, auto_speed: 8, max_speed: 12,
  default_height: 80, return_height: 100, finish_action: 20, distance: 1000, est_time: 300, user_name: 'admin', create_time: 1, modified_time: 1,
  waypoints: waypoints.map((p) => ({ ...p, height: 80 })),
});
const routes = [mission('m1', 'Patrol A01', [at(0, 0), at(0, 1000)]), mission('m2', 'Survey A01', [at(300, 0), at(300, 1000)])];

function answer(overrides: Record<string, (fields: Record<string, unknown>) => unknown> = {}) {
  call.mockImplementation(async (name: string, fields: Record<string, unknown>) => {
    if (overrides[name]) return overrides[name](fields);
    if (name === 'fenceList') return { list: [fence], total: 1 };
    if (name === 'deviceList') return { list: [{ sn_id: 'NEST-1', name: 'Nest A01', airport_point: HOME }], total: 1 };
    if (name === 'missionList') return { list: routes, total: routes.length };
    if (name === 'noFlyList') return { list: zones, total: zones.length };
    throw new Error(`unexpected ${name}`);
  });
}

const page = (path: string, element = <RoutePlanPage />) => render(<MemoryRouter initialEntries={[path]}>{element}</MemoryRouter>);

beforeEach(() => {
  call.mockReset();
  queryClient.clear();
  planProps = null;
});
afterEach(() => {
  cleanup();
  act(() => applyLang('zh'));
});

describe('route planning: the no-fly zone tab', () => {
  it('lists the zones with shape, device, validity and status, in both languages', async () => {
    answer();
    page('/routeplan?tab=nofly');
    await waitFor(() => expect(screen.getAllByTestId('nofly-item')).toHaveLength(3));
    const rows = () => screen.getAllByTestId('nofly-item');
    expect(rows().map((r) => r.getAttribute('data-status'))).toEqual(['active', 'upcoming', 'expired']);
    expect(rows()[0]!.textContent).toContain('生效中');
    expect(rows()[0]!.textContent).toContain('多边形 · 全部设备 · 长期有效');
    expect(rows()[1]!.textContent).toContain('圆形 · Nest A01 · ');
    expect(rows()[2]!.textContent).toContain('已过期');
    act(() => applyLang('en'));
    expect(rows()[0]!.textContent).toContain('Polygon · All devices · No time limit');
    expect(rows()[1]!.textContent).toContain('Not yet valid');
    expect(rows()[2]!.textContent).toMatch(/Expired.*Until \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);
    // Every map draws the company zones.
    expect(planProps?.noFly?.map((z) => z.id)).toEqual(['z1', 'z2', 'z3']);
  });

  it('shows the server refusal of a fence delete as it is worded, and deletes nothing else', async () => {
    const refusal = '围栏「Fence A01」正被航线「Patrol A01」使用，不能删除';
    answer({ fenceDelete: () => { throw new RequestError(refusal); } });
    page('/routeplan?tab=fences');
    fireEvent.click(await screen.findByText('Fence A01', { selector: '.routeplan-item-title' }));
    fireEvent.click(screen.getByTestId('delete-selected'));
    // antd spaces out a two-character Chinese button label.
    fireEvent.click(await screen.findByRole('button', { name: /^确\s?定$/ }));
    await waitFor(() => expect(screen.getByTestId('action-error').textContent).toBe(`操作未完成: ${refusal}`));
    expect(call.mock.calls.filter(([n]) => n === 'fenceDelete')).toEqual([['fenceDelete', { id: 'F1' }, { quiet: true }]]);
    expect(screen.getAllByTestId('fence-item')).toHaveLength(1);
  });
});

describe('route planning: a route crossing a no-fly zone is red', () => {
  it('tags the route with the first conflict (zone and reason), draws it red, and leaves the others alone', async () => {
    answer();
    page('/routeplan');
    await waitFor(() => expect(screen.getAllByTestId('plan-item')).toHaveLength(2));
    const [patrol, survey] = screen.getAllByTestId('plan-item');
    expect(patrol!.getAttribute('data-blocked')).toBe('1');
    expect(survey!.getAttribute('data-blocked')).toBe('0');
    expect(within(patrol!).getByTestId('route-blocked').textContent).toBe('第 1 到第 2 个航点之间的航线穿过禁飞区「实验小学」（原因：上课时段）');
    fireEvent.click(patrol!);
    await waitFor(() => expect(screen.getByTestId('route-conflict').textContent).toContain('穿越禁飞区'));
    expect(planProps?.shapes.find((s) => s.id === 'route')?.color).toBe('#ef4444');
    act(() => applyLang('en'));
    expect(within(patrol!).getByTestId('route-blocked').textContent).toBe('The leg from waypoint 1 to 2 crosses the no-fly zone "实验小学" (reason: 上课时段)');
    expect(screen.getByTestId('route-conflict').textContent).toContain('Crosses a no-fly zone');
    fireEvent.click(survey!);
    await waitFor(() => expect(screen.queryByTestId('route-conflict')).toBeNull());
    expect(planProps?.shapes.find((s) => s.id === 'route')?.color).toBeUndefined();
  });
});

describe('the no-fly zone editor', () => {
  it('checks a circle radius and the name with localised texts, lists the routes it would block, and saves the circle', async () => {
    answer({ noFlyAdd: (f) => ({ ...zone('z9', String(f.name)), ...f }) });
    page('/editWork?mode=nofly', <NoFlyEditPage />);
    await screen.findByTestId('nofly-name');
    fireEvent.click(screen.getByText('圆形'));
    await waitFor(() => expect(planProps?.edit?.noInsert).toBe(true));
    act(() => planProps!.edit!.onAdd!(at(0, 500)));
    await waitFor(() => expect(planProps?.edit?.points).toHaveLength(2));
    const issues = () => [...screen.getByTestId('issues').querySelectorAll('[data-testid=issue]')].map((e) => e.textContent);
    expect(issues()).toEqual(['请填写禁飞区名称']);
    // The default circle (200 m) around (0, 500) lies across the patrol's leg: it is listed, not refused.
    await waitFor(() => expect(screen.getByTestId('nofly-blocks').getAttribute('data-count')).toBe('1'));
    expect(screen.getByTestId('nofly-blocked-route').getAttribute('data-name')).toBe('Patrol A01');
    // Dragging the handle sets the radius; a radius out of range is an issue with the range.
    act(() => planProps!.edit!.onMove(1, at(0 + 150, 500)));
    await waitFor(() => expect(Number((screen.getByTestId('nofly-radius') as HTMLInputElement).value)).toBeCloseTo(150, 0));
    fireEvent.change(screen.getByTestId('nofly-radius'), { target: { value: '60000' } });
    await waitFor(() => expect(issues()).toContain('半径须大于 0 且不超过 50000 米'));
    act(() => applyLang('en'));
    expect(issues()).toEqual(['Enter the zone name', 'The radius must be above 0 and at most 50000 m']);
    expect((screen.getByTestId('save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('nofly-radius'), { target: { value: '120' } });
    fireEvent.change(screen.getByTestId('nofly-name'), { target: { value: 'Crowd' } });
    await waitFor(() => expect((screen.getByTestId('save') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('save'));
    await waitFor(() => expect(call.mock.calls.some(([n]) => n === 'noFlyAdd')).toBe(true));
    const [, fields] = call.mock.calls.find(([n]) => n === 'noFlyAdd')!;
    expect(fields).toEqual({ name: 'Crowd', reason: '', shape: NoFlyShape.CIRCLE, center: at(0, 500), radius: 120, sn_id: '' });
  });

  it('shows a zone\'s validity in each language\'s date format, in two pickers, and saves an end set apart', async () => {
    answer({ noFlyEdit: (f) => ({ ...zones[1], ...f }) });
    page('/editWork?mode=nofly&id=z2', <NoFlyEditPage />);
    const input = (id: string) => {
      const e = screen.getByTestId(id);
      return (e instanceof HTMLInputElement ? e : e.querySelector('input')!) as HTMLInputElement;
    };
    const from = () => input('nofly-valid-from');
    const to = () => input('nofly-valid-to');
    await waitFor(() => expect(from().value).toBe(formatDateTime((NOW + 86_400) * 1000, 'zh', false)));
    expect(to().value).toBe('');
    act(() => applyLang('en'));
    await waitFor(() => expect(from().value).toBe(formatDateTime((NOW + 86_400) * 1000, 'en', false)));
    // An end typed as the pickers show it (the en form, with the month spelt) is read back to the minute.
    const end = new Date((NOW + 3 * 86_400) * 1000);
    end.setSeconds(0, 0);
    fireEvent.mouseDown(to());
    fireEvent.change(to(), { target: { value: formatDateTime(end.getTime(), 'en', false) } });
    fireEvent.click(await waitFor(() => document.querySelector('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-ok button')!));
    await waitFor(() => expect(to().value).toBe(formatDateTime(end.getTime(), 'en', false)));
    fireEvent.click(screen.getByTestId('save'));
    await waitFor(() => expect(call.mock.calls.some(([n]) => n === 'noFlyEdit')).toBe(true));
    const [, fields] = call.mock.calls.find(([n]) => n === 'noFlyEdit')!;
    expect(fields).toMatchObject({ id: 'z2', valid_to: end.getTime() / 1000 + 59 });
  });

  it('marks a polygon crossing itself with the server text and does not save it', async () => {
    answer();
    page('/editWork?mode=nofly', <NoFlyEditPage />);
    fireEvent.change(await screen.findByTestId('nofly-name'), { target: { value: 'Bow' } });
    for (const p of [at(0, 0), at(100, 100), at(100, 0), at(0, 100)]) act(() => planProps!.edit!.onAdd!(p));
    await waitFor(() => expect(screen.getByTestId('issues').textContent).toContain('禁飞区「Bow」的边界自相交'));
    // The crossing is marked where it is on the map.
    expect(planProps?.marks).toHaveLength(1);
    expect((screen.getByTestId('save') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('route planning: importing a file with no-fly zones', () => {
  it('creates the zones of a QGC plan (exclusion polygon and circle), imports its route, and lists the items it could not keep', async () => {
    answer({ noFlyAdd: (f) => ({ ...zone('zn', String(f.name)), ...f }), missionAdd: (f) => ({ ...mission('mn', String(f.name), []), ...f }) });
    page('/routeplan');
    await waitFor(() => expect(screen.getAllByTestId('plan-item')).toHaveLength(2));
    const wp = (p: LatLng, seq: number, command = 16, params = [0, 0, 0, null, p.lat, p.lng, 60]) =>
      ({ type: 'SimpleItem', command, frame: 3, params, autoContinue: true, doJumpId: seq, Altitude: 60, AltitudeMode: 1, AMSLAltAboveTerrain: null });
    const a = at(100, 100);
    const b = at(300, 100);
    const plan = {
      fileType: 'Plan', version: 1, groundStation: 'QGroundControl',
      mission: {
        version: 2, firmwareType: 12, vehicleType: 2, cruiseSpeed: 15, hoverSpeed: 5, plannedHomePosition: [HOME.lat, HOME.lng, 0],
        items: [wp(a, 1), wp(a, 2, 183, [1, 1500, 0, 0, 0, 0, 0]), wp(b, 3)],
      },
      geoFence: {
        version: 2,
        polygons: [{ version: 1, inclusion: false, polygon: square(-500, -500, 50).map((p) => [p.lat, p.lng]) }],
        circles: [{ version: 1, inclusion: false, circle: { center: [at(500, 500).lat, at(500, 500).lng], radius: 80 } }],
      },
      rallyPoints: { version: 2, points: [] },
    };
    const file = new File([JSON.stringify(plan)], 'school.plan', { type: 'application/json' });
    fireEvent.change(screen.getByTestId('import-file'), { target: { files: [file] } });
    await waitFor(() => expect(call.mock.calls.filter(([n]) => n === 'noFlyAdd')).toHaveLength(2));
    const added = call.mock.calls.filter(([n]) => n === 'noFlyAdd').map(([, f]) => f as Record<string, unknown>);
    expect(added.map((f) => f.shape).sort()).toEqual([NoFlyShape.POLYGON, NoFlyShape.CIRCLE]);
    const circle = added.find((f) => f.shape === NoFlyShape.CIRCLE)!;
    expect(circle.radius).toBe(80);
    expect(circle.boundary).toBeUndefined();
    await waitFor(() => expect(call.mock.calls.some(([n]) => n === 'missionAdd')).toBe(true));
    // The servo item (number 2) is named in the notes, in the language.
    const notes = await screen.findByTestId('import-notes');
    expect(notes.textContent).toMatch(/第 2 项/);
    act(() => applyLang('en'));
    expect(screen.getByTestId('import-notes').textContent).toMatch(/Item 2/);
  });

  it('does not create again the zones the company has (a re-imported export)', async () => {
    answer();
    page('/routeplan?tab=nofly');
    await waitFor(() => expect(screen.getAllByTestId('nofly-item')).toHaveLength(3));
    const file = exportPlanFile(documentOf(null, null, zones), 'plan');
    if (!file.ok) throw new Error(file.error.en);
    info.mockReset();
    fireEvent.change(screen.getByTestId('import-file'), { target: { files: [new File([file.bytes as BlobPart], 'zones.plan')] } });
    await waitFor(() => expect(info).toHaveBeenCalledWith('文件中的禁飞区均已存在，未重复创建'));
    expect(call.mock.calls.filter(([n]) => n === 'noFlyAdd')).toEqual([]);
  });
});
