import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { applyLang } from '../i18n';
import { MARKER_COLOR_MINE, MARKER_COLORS } from '../map/markers';
import { StatusBadge } from './StatusBadge';

afterEach(() => {
  cleanup();
  act(() => applyLang('zh'));
});

const badge = () => screen.getByTestId('status-badge');

describe('device status badge', () => {
  it('tells a hold by the signed-in user from one by someone else, in Chinese', () => {
    act(() => applyLang('zh'));
    render(<StatusBadge state={3} holder={{ mine: true }} />);
    expect(badge().textContent).toBe('由您控制');
    expect(badge().dataset.holder).toBe('me');
    expect(badge().style.getPropertyValue('--badge-color')).toBe(MARKER_COLOR_MINE);
    cleanup();
    render(<StatusBadge state={3} holder={{ mine: false, nick: '张三' }} />);
    expect(badge().textContent).toBe('张三 连接中');
    expect(badge().dataset.holder).toBe('other');
    expect(badge().style.getPropertyValue('--badge-color')).toBe(MARKER_COLORS[3]);
  });

  it('the same in English; nobody named reads the plain status', () => {
    act(() => applyLang('en'));
    render(<StatusBadge state={3} holder={{ mine: true }} />);
    expect(badge().textContent).toBe('Controlled by you');
    cleanup();
    render(<StatusBadge state={3} holder={{ mine: false, nick: 'Alice' }} />);
    expect(badge().textContent).toBe('Connected by Alice');
    cleanup();
    render(<StatusBadge state={3} holder={{ mine: false, nick: null }} />);
    expect(badge().textContent).toBe('Connected by someone');
    cleanup();
    // Not held: the holder does not matter.
    render(<StatusBadge state={1} holder={null} />);
    expect(badge().textContent).toBe('Online');
    expect(badge().dataset.holder).toBeUndefined();
  });
});
