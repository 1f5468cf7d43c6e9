import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { ReplayMapProps } from './ReplayMap';

// The map needs WebGL: a stand-in draws what the page hands it (aircraft state and photo buttons).
vi.mock('./ReplayMap', () => ({
  default: ({ sample, photos, onPhoto }: ReplayMapProps) => (
    <div>
      {sample && <div data-testid="replay-aircraft" data-lat={sample.lat} data-lng={sample.lng} data-heading={sample.heading} />}
      {photos.map((p) => (
        <button key={p.id} type="button" data-testid="replay-photo" data-time={p.time} onClick={() => onPhoto(p)} />
      ))}
    </div>
  ),
}));

class RequestError extends Error {}
const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args), RequestError }));

const { default: RouteReplayPage } = await import('./RouteReplayPage');

const T0 = 1_700_000_000_000;
const pt = (s: number, lat: number, heading: number, height: number, battery: number) => ({
  t: T0 + s * 1000, lat, lng: 114, alt: height + 50, height, speed: 5, heading, battery, flight_state: 2,
});
const sortie = (over: Record<string, unknown> = {}) => ({
  sort_id: '7', mission_name: 'Patrol A', sn_id: 'SN1', device_name: 'Nest 1', uav_id: 'U1', mission_type: 1, user_name: 'Ann',
  start_time: T0 / 1000, end_time: T0 / 1000 + 20, count: 1, distance: 222, place: null, mission_id: null, flight_id: 'f', ...over,
});
const points = [pt(0, 22.5, 350, 0, 100), pt(10, 22.501, 10, 50, 90), pt(20, 22.502, 90, 100, 80)];
const photo = { id: '31', sort_id: '7', sn_id: 'SN1', device_name: 'Nest 1', type: 10, file_name: 'a.jpg', url: '/media/a.jpg', thumb_url: '/media/a_t.jpg',
  mime: 'image/jpeg', size: 1, width: 1, height: 1, duration: null, lat: 22.5015, lng: 114, altitude: 80, waypoint_index: 1, taken_at: T0 + 15_000, create_time: 1 };

function answer(track: unknown, results: unknown[] = [photo]) {
  call.mockImplementation(async (name: string) => {
    if (name === 'sortiesTrack') {
      if (track instanceof Error) throw track;
      return track;
    }
    if (name === 'resultList') return { list: results, total: results.length };
    throw new Error(`unexpected ${name}`);
  });
}

function show(path = '/routeReplay?sort_id=7') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/routeReplay" element={<RouteReplayPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const text = (id: string) => screen.getByTestId(id).textContent;

describe('result replay screen', () => {
  let frames: FrameRequestCallback[] = [];
  let now = 0;
  beforeEach(() => {
    call.mockReset();
    frames = [];
    now = 0;
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    vi.spyOn(performance, 'now').mockImplementation(() => now);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  const frame = (ms: number) =>
    act(() => {
      now += ms;
      const run = frames;
      frames = [];
      run.forEach((cb) => cb(now));
    });

  it('shows the sortie, the readouts at the start, and seeks with the arrow keys', async () => {
    answer({ sortie: sortie(), points, planned: [{ lat: 22.5, lng: 114, height: 60 }] });
    show();
    await screen.findByTestId('replay-page');
    expect(call).toHaveBeenCalledWith('sortiesTrack', { id: '7' }, { quiet: true });
    expect(call).toHaveBeenCalledWith('resultList', { sort_id: '7', page: 0, size: 1000 }, { quiet: true });
    expect(text('replay-route')).toBe('Patrol A');
    expect(text('replay-count')).toBe('1');
    expect(text('replay-clock')).toBe('00:00:00 / 00:00:20');
    expect(screen.getByTestId('replay-height').dataset.value).toBe('0.0');
    expect(screen.getByTestId('replay-battery').dataset.value).toBe('100');

    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(text('replay-clock')).toBe('00:00:05 / 00:00:20');
    expect(screen.getByTestId('replay-height').dataset.value).toBe('25.0');
    expect(Number(screen.getByTestId('replay-aircraft').dataset.heading)).toBeCloseTo(0, 5);
    fireEvent.keyDown(window, { key: 'ArrowRight', shiftKey: true });
    expect(text('replay-clock')).toBe('00:00:20 / 00:00:20');
    fireEvent.keyDown(window, { key: 'ArrowLeft', shiftKey: true });
    expect(text('replay-clock')).toBe('00:00:00 / 00:00:20');
  });

  it('plays by animation frames at the chosen speed and stops at the end', async () => {
    answer({ sortie: sortie(), points, planned: [] });
    show();
    await screen.findByTestId('replay-page');
    fireEvent.click(screen.getByTestId('replay-speed-4'));
    fireEvent.keyDown(window, { key: ' ' });
    expect(screen.getByTestId('replay-play').dataset.playing).toBe('true');
    frame(0);
    for (let i = 0; i < 10; i++) frame(250);
    // 2.5 s of real time at 4x: 10 s of flight.
    expect(text('replay-clock')).toBe('00:00:10 / 00:00:20');
    expect(Number(screen.getByTestId('replay-aircraft').dataset.lat)).toBeCloseTo(22.501, 6);
    expect(text('replay-distance')).toMatch(/^111m$/);
    for (let i = 0; i < 20; i++) frame(250);
    expect(text('replay-clock')).toBe('00:00:20 / 00:00:20');
    expect(screen.getByTestId('replay-play').dataset.playing).toBe('false');
    expect(screen.getByTestId('replay-play').getAttribute('aria-pressed')).toBe('false');
  });

  it('a photo sits on the timeline when it was taken and a click seeks there', async () => {
    answer({ sortie: sortie(), points });
    show();
    await screen.findByTestId('replay-page');
    expect(screen.getAllByTestId('replay-tick')).toHaveLength(1);
    expect(screen.getByTestId('replay-tick').style.left).toBe('75%');
    fireEvent.click(screen.getByTestId('replay-photo'));
    expect(text('replay-clock')).toBe('00:00:15 / 00:00:20');
  });

  it('says when the sortie cannot be opened, with the call error', async () => {
    answer(new RequestError('No permission'));
    show();
    expect((await screen.findByTestId('replay-error')).textContent).toContain('No permission');
  });

  it('says when the track has no points, and when the sortie is still flying (reload reads again)', async () => {
    answer({ sortie: sortie({ end_time: 0 }), points: [], planned: null });
    show();
    await screen.findByTestId('replay-empty');
    expect(screen.getByTestId('replay-open')).toBeTruthy();
    expect(screen.getByTestId('replay-play')).toHaveProperty('disabled', true);
    const before = call.mock.calls.filter((c) => c[0] === 'sortiesTrack').length;
    fireEvent.click(screen.getByTestId('replay-reload'));
    await waitFor(() => expect(call.mock.calls.filter((c) => c[0] === 'sortiesTrack').length).toBe(before + 1));
  });
});
