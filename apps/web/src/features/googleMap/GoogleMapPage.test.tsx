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

const { default: GoogleMapPage } = await import('./GoogleMapPage');

describeZoneLegend({
  title: 'google map zones',
  call,
  renderMap: () => <GoogleMapPage />,
  expectPlace: (legend) => {
    expect(legend.parentElement?.dataset.testid).toBe('google-map');
  },
  expectRenderedWithoutZones: () => {
    expect(screen.getByTestId('google-map')).toBeTruthy();
  },
});
