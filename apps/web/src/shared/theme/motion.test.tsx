import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { themeConfig, useReducedMotion } from './index';

/** A matchMedia of one query whose answer the test changes, as the system setting would. */
function stubMatchMedia(initial: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    matches: initial,
    media: '(prefers-reduced-motion: reduce)',
    addEventListener: (_: string, cb: () => void) => listeners.add(cb),
    removeEventListener: (_: string, cb: () => void) => listeners.delete(cb),
  };
  window.matchMedia = ((q: string) => {
    expect(q).toBe('(prefers-reduced-motion: reduce)');
    return list;
  }) as unknown as typeof window.matchMedia;
  return {
    set(v: boolean) {
      list.matches = v;
      listeners.forEach((l) => l());
    },
  };
}

function Probe() {
  return <span data-testid="motion">{useReducedMotion() ? 'reduced' : 'full'}</span>;
}

const original = window.matchMedia;
afterEach(() => {
  window.matchMedia = original;
});

describe('reduced motion', () => {
  it('follows the system setting, also when it changes while open', () => {
    const media = stubMatchMedia(false);
    render(<Probe />);
    expect(screen.getByTestId('motion').textContent).toBe('full');
    act(() => media.set(true));
    expect(screen.getByTestId('motion').textContent).toBe('reduced');
  });

  it('turns antd motion off only when asked, keeping the theme tokens', () => {
    expect(themeConfig('default', false).token?.motion).toBeUndefined();
    const reduced = themeConfig('concise', true);
    expect(reduced.token?.motion).toBe(false);
    expect(reduced.token?.colorPrimary).toBe(themeConfig('concise', false).token?.colorPrimary);
  });
});
