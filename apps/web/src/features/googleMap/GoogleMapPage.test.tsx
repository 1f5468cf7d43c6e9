import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { NoFlyShape, type NoFlyZone } from '@nest/contracts';
import { applyLang } from '../../shared/i18n';
import { queryClient } from '../../shared/query';
import { installMatchMedia, installResizeObserver } from '../../test/dom';

installMatchMedia();
installResizeObserver();

// jsdom has no WebGL: the map is unavailable, and the legends around it are what is checked here.
vi.mock('../../shared/map/consoleMap', () => ({
  createConsoleMap: () => {
    throw new Error('no WebGL');
  },
}));
const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));

const { default: GoogleMapPage } = await import('./GoogleMapPage');

const school: NoFlyZone = {
  id: 'z1', name: 'School', reason: 'classes', shape: NoFlyShape.POLYGON,
  boundary: [{ lat: 22.5, lng: 114 }, { lat: 22.51, lng: 114 }, { lat: 22.51, lng: 114.01 }],
  center: null, radius: null, sn_id: '', valid_from: null, valid_to: null, active: true, user_name: 'admin', create_time: 1, modified_time: 1,
};

const kinds = () => [...screen.getByTestId('zone-legend').children].map((c) => [c.getAttribute('data-kind'), c.textContent]);

describe('google map zones', () => {
  beforeEach(() => {
    call.mockReset();
    queryClient.clear();
    applyLang('zh');
  });
  afterEach(() => {
    cleanup();
    applyLang('zh');
  });

  it("shows the company's no-fly zones in the legend, in both languages", async () => {
    call.mockImplementation(async (name: string) => {
      if (name === 'noFlyList') return { list: [school], total: 1 };
      throw new Error(`unexpected ${name}`);
    });
    render(<GoogleMapPage />);
    await screen.findByTestId('zone-legend');
    expect(call).toHaveBeenCalledWith('noFlyList', { page: 0, size: 1000 }, expect.anything());
    expect(kinds().at(-1)).toEqual(['nofly', '企业禁飞区']);
    expect(screen.getByTestId('map-zones').textContent).toBe('企业禁飞区 School');
    expect(screen.getByTestId('zone-legend').parentElement?.dataset.testid).toBe('google-map');
    act(() => applyLang('en'));
    expect(kinds().at(-1)).toEqual(['nofly', 'No-fly zone (company)']);
    expect(screen.getByTestId('map-zones').textContent).toBe('Company no-fly zone School');
  });

  it('shows no zone legend while there are no zones', async () => {
    call.mockImplementation(async (name: string) => {
      if (name === 'noFlyList') return { list: [], total: 0 };
      throw new Error(`unexpected ${name}`);
    });
    render(<GoogleMapPage />);
    await vi.waitFor(() => expect(call).toHaveBeenCalledWith('noFlyList', { page: 0, size: 1000 }, expect.anything()));
    expect(screen.getByTestId('google-map')).toBeTruthy();
    expect(screen.queryByTestId('zone-legend')).toBeNull();
  });
});
