import { expect, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { describeZoneLegend } from '../../test/zone-legend';

// The test DOM has no WebGL: the map is unavailable, and the legends around it are what is checked here.
vi.mock('../../shared/map/consoleMap', () => ({
  createConsoleMap: () => {
    throw new Error('no WebGL');
  },
}));
const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));

const { default: ReplayMap } = await import('./ReplayMap');

describeZoneLegend({
  title: 'replay map zones',
  call,
  renderMap: () => <ReplayMap points={[]} planned={[]} photos={[]} sample={null} theme="default" onPhoto={() => undefined} />,
  expectPlace: (legend) => {
    // The zones' legend sits with the track's legend, not over the map's tools.
    expect(legend.parentElement?.className).toBe('replay-map-legends');
  },
  expectRenderedWithoutZones: () => {
    expect(screen.getByTestId('replay-map').textContent).toContain('计划航线');
  },
});
