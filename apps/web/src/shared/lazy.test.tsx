import { afterEach, describe, expect, it } from 'vitest';
import { Suspense, type ComponentType, type ReactNode } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { preloadable } from './lazy';

const Inside = (): ReactNode => <span>inside</span>;
const view = (Component: ComponentType) =>
  render(
    <Suspense fallback={<span>loading</span>}>
      <Component />
    </Suspense>,
  );

describe('preloadable components', () => {
  afterEach(cleanup);

  it('renders a preloaded module in the first pass, without a fallback', async () => {
    let loads = 0;
    const screenCode = preloadable(async () => {
      loads += 1;
      return { default: Inside };
    });
    expect(screenCode.loaded()).toBe(false);
    await screenCode.preload();
    await screenCode.preload();
    expect(screenCode.loaded()).toBe(true);
    view(screenCode.Component);
    expect(screen.getByText('inside')).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
    expect(loads).toBe(1);
  });

  it('shows the fallback while a module not preloaded is fetched, then the module', async () => {
    let arrive: (m: { default: typeof Inside }) => void = () => {};
    const screenCode = preloadable(() => new Promise<{ default: typeof Inside }>((r) => (arrive = r)));
    view(screenCode.Component);
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => arrive({ default: Inside }));
    expect(await screen.findByText('inside')).toBeTruthy();
    expect(screenCode.loaded()).toBe(true);
  });

  it('fetches again after a failed preload', async () => {
    let loads = 0;
    const screenCode = preloadable(async () => {
      loads += 1;
      if (loads === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: Inside };
    });
    await expect(screenCode.preload()).rejects.toThrow(/dynamically imported/);
    expect(screenCode.loaded()).toBe(false);
    await screenCode.preload();
    expect(loads).toBe(2);
    view(screenCode.Component);
    expect(screen.getByText('inside')).toBeTruthy();
  });
});
