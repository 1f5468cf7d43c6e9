import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { NoFlyShape, PushMsgId, type MapDownload, type NoFlyZone } from '@nest/contracts';
import { applyLang } from '../../shared/i18n';
import { installMatchMedia, installResizeObserver } from '../../test/dom';

installMatchMedia();
installResizeObserver();

// The test DOM has no WebGL: the page shows its form and jobs without the map (the map-unavailable path).
vi.mock('../../shared/map/consoleMap', () => ({
  createConsoleMap: () => {
    throw new Error('no WebGL');
  },
}));
const handlers = new Map<number, Set<(data: unknown) => void>>();
vi.mock('../../shared/push', () => ({
  onPush: (id: number, h: (data: unknown) => void) => {
    if (!handlers.has(id)) handlers.set(id, new Set());
    handlers.get(id)!.add(h);
    return () => handlers.get(id)!.delete(h);
  },
}));
const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args), serviceBases: () => ({ zone: '/api/zone' }) }));
let funList = ['map_down', 'map_downList', 'map_downCancel'];
vi.mock('../../shared/session', () => ({ useUser: () => ({ fun_list: funList }) }));
const success = vi.fn();
vi.mock('../../shared/notify', () => ({ notify: () => ({ success, error: vi.fn(), warning: vi.fn(), info: vi.fn() }) }));

const { default: OutLineMapPage } = await import('./OutLineMapPage');

const job = (over: Partial<MapDownload> = {}): MapDownload => ({
  id: 'j1', name: 'Shenzhen', min_lat: 22.4, min_lng: 113.8, max_lat: 22.7, max_lng: 114.2, min_zoom: 0, max_zoom: 10, total: 18, done: 0,
  state: 'waiting', error: '', u_id: 'u', company_id: 'wk', create_time: 1_700_000_000, modified_time: 1_700_000_000, ...over,
});

function answer(list: MapDownload[]) {
  call.mockImplementation(async (name: string) => {
    if (name === 'mapDownList') return { list, total: list.length };
    if (name === 'mapDown') return { id: 'j2', total: 18 };
    if (name === 'mapDownCancel') return job({ state: 'cancelled' });
    throw new Error(`unexpected ${name}`);
  });
}

const emit = (id: number, data: unknown) => act(() => handlers.get(id)?.forEach((h) => h(data)));
const type = (testId: string, value: string) => {
  const input = screen.getByTestId(testId).querySelector('input') ?? (screen.getByTestId(testId) as HTMLInputElement);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

describe('offline map screen', () => {
  beforeEach(() => {
    call.mockReset();
    success.mockReset();
    funList = ['map_down', 'map_downList', 'map_downCancel'];
  });
  afterEach(() => cleanup());

  it('estimates the tiles of a typed box and starts a download with it', async () => {
    answer([]);
    render(<OutLineMapPage />);
    await waitFor(() => expect(call).toHaveBeenCalledWith('mapDownList', { page: 0, size: 10 }, { quiet: false }));
    expect(screen.getByTestId('download-estimate').dataset.count).toBe('');
    type('download-max_lat', '22.7');
    type('download-min_lat', '22.4');
    type('download-min_lng', '113.8');
    type('download-max_lng', '114.2');
    type('download-name', 'Shenzhen');
    await waitFor(() => expect(screen.getByTestId('download-estimate').dataset.count).toBe('18'));
    fireEvent.click(screen.getByTestId('download-start'));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith('mapDown', { name: 'Shenzhen', min_lat: 22.4, min_lng: 113.8, max_lat: 22.7, max_lng: 114.2, min_zoom: 0, max_zoom: 10 }),
    );
    await waitFor(() => expect(success).toHaveBeenCalled());
  });

  it('follows a job live through push 391 and offers the offline map when it is done', async () => {
    answer([job()]);
    render(<OutLineMapPage />);
    await waitFor(() => expect(screen.getByTestId('job-progress-j1').dataset.done).toBe('0'));
    emit(PushMsgId.MAP_DOWNLOAD, job({ state: 'running', done: 9, modified_time: 1_700_000_001 }));
    expect(screen.getByTestId('job-progress-j1').dataset.done).toBe('9');
    expect(screen.queryByTestId('job-view-j1')).toBeNull();
    emit(PushMsgId.MAP_DOWNLOAD, job({ state: 'done', done: 18, modified_time: 1_700_000_002 }));
    expect(screen.getByTestId('job-progress-j1').dataset.done).toBe('18');
    fireEvent.click(screen.getByTestId('job-view-j1'));
    expect(screen.getByTestId('offline-map-viewing').textContent).toContain('Shenzhen');
    expect(screen.getByTestId('offline-map-canvas').dataset.basemap).toBe('offline');
  });

  it('hides the start button without map_down', async () => {
    funList = ['map_downList'];
    answer([]);
    render(<OutLineMapPage />);
    await waitFor(() => expect(call).toHaveBeenCalled());
    expect(screen.queryByTestId('download-start')).toBeNull();
  });

  it("shows the company's no-fly zones in the map's legend, in both languages", async () => {
    const school: NoFlyZone = {
      id: 'z1', name: 'School', reason: 'classes', shape: NoFlyShape.POLYGON,
      boundary: [{ lat: 22.5, lng: 114 }, { lat: 22.51, lng: 114 }, { lat: 22.51, lng: 114.01 }],
      center: null, radius: null, sn_id: '', valid_from: null, valid_to: null, active: true, user_name: 'admin', create_time: 1, modified_time: 1,
    };
    call.mockImplementation(async (name: string) => {
      if (name === 'mapDownList') return { list: [], total: 0 };
      if (name === 'noFlyList') return { list: [school], total: 1 };
      throw new Error(`unexpected ${name}`);
    });
    applyLang('zh');
    render(<OutLineMapPage />);
    const legend = await screen.findByTestId('zone-legend');
    const kinds = () => [...screen.getByTestId('zone-legend').children].map((c) => [c.getAttribute('data-kind'), c.textContent]);
    // Over the map, beside its tools.
    expect(legend.parentElement?.className).toBe('offline-map-map');
    expect(kinds().at(-1)).toEqual(['nofly', '企业禁飞区']);
    expect(screen.getByTestId('map-zones').textContent).toBe('企业禁飞区 School');
    act(() => applyLang('en'));
    expect(kinds().at(-1)).toEqual(['nofly', 'No-fly zone (company)']);
    expect(screen.getByTestId('map-zones').textContent).toBe('Company no-fly zone School');
    act(() => applyLang('zh'));
  });
});
