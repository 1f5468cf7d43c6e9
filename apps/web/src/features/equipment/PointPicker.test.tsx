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

const { default: PointPicker } = await import('./PointPicker');

describeZoneLegend({
  title: 'point picker zones',
  call,
  renderMap: () => <PointPicker theme="default" points={{}} active={null} onPick={() => undefined} />,
  expectPlace: (legend) => {
    expect(legend.parentElement?.dataset.testid).toBe('equipment-map');
  },
  expectRenderedWithoutZones: () => {
    expect(screen.getByTestId('equipment-map')).toBeTruthy();
  },
});
