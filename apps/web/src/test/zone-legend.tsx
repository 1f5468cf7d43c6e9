import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { NoFlyShape, type NoFlyZone } from '@nest/contracts';
import { applyLang } from '../shared/i18n';
import { queryClient } from '../shared/query';
import { installMatchMedia, installResizeObserver } from './dom';

/**
 * The no-fly zone legend every map shows, checked the same way on each: the map's test file replaces
 * `shared/map/consoleMap` (the test DOM has no WebGL, so the map itself is unavailable) and `shared/request` with
 * `call`, then hands its map here. The zones drawn under the map's layers are seen only in a real browser.
 */
export interface ZoneLegendCase {
  /** What the describe block is called. */
  title: string;
  /** The mocked `call` of `shared/request`. */
  call: Mock;
  /** Renders the map with empty content. */
  renderMap: () => ReactElement;
  /** Where the legend must sit (it must not cover the map's own tools). */
  expectPlace: (legend: HTMLElement) => void;
  /** Proves the map rendered while no zone legend is shown. */
  expectRenderedWithoutZones: () => void;
}

export const schoolZone: NoFlyZone = {
  id: 'z1', name: 'School', reason: 'classes', shape: NoFlyShape.POLYGON,
  boundary: [{ lat: 22.5, lng: 114 }, { lat: 22.51, lng: 114 }, { lat: 22.51, lng: 114.01 }],
  center: null, radius: null, sn_id: '', valid_from: null, valid_to: null, active: true, user_name: 'admin', create_time: 1, modified_time: 1,
};

const legendKinds = () => [...screen.getByTestId('zone-legend').children].map((c) => [c.getAttribute('data-kind'), c.textContent]);

export function describeZoneLegend({ title, call, renderMap, expectPlace, expectRenderedWithoutZones }: ZoneLegendCase): void {
  installMatchMedia();
  installResizeObserver();
  const answer = (zones: NoFlyZone[]) =>
    call.mockImplementation(async (name: string) => {
      if (name === 'noFlyList') return { list: zones, total: zones.length };
      throw new Error(`unexpected ${name}`);
    });

  describe(title, () => {
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
      answer([schoolZone]);
      render(renderMap());
      await screen.findByTestId('zone-legend');
      expect(call).toHaveBeenCalledWith('noFlyList', { page: 0, size: 1000 }, expect.anything());
      expect(legendKinds().at(-1)).toEqual(['nofly', '企业禁飞区']);
      expect(screen.getByTestId('map-zones').textContent).toBe('企业禁飞区 School');
      expectPlace(screen.getByTestId('zone-legend'));
      act(() => applyLang('en'));
      expect(legendKinds().at(-1)).toEqual(['nofly', 'No-fly zone (company)']);
      expect(screen.getByTestId('map-zones').textContent).toBe('Company no-fly zone School');
    });

    it('shows no zone legend while there are no zones', async () => {
      answer([]);
      render(renderMap());
      await vi.waitFor(() => expect(call).toHaveBeenCalledWith('noFlyList', { page: 0, size: 1000 }, expect.anything()));
      expectRenderedWithoutZones();
      expect(screen.queryByTestId('zone-legend')).toBeNull();
    });
  });
}
