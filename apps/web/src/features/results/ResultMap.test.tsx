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

const { default: ResultMap } = await import('./ResultMap');

describeZoneLegend({
  title: 'results map zones',
  call,
  renderMap: () => <ResultMap items={[]} theme="default" onOpen={() => undefined} />,
  expectPlace: (legend) => {
    expect(legend.parentElement?.dataset.testid).toBe('result-map');
  },
  expectRenderedWithoutZones: () => {
    expect(screen.getByTestId('result-map')).toBeTruthy();
  },
});
