import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { applyLang } from '../../../shared/i18n';
import { Checklist, checkValueText } from './Checklist';

afterEach(cleanup);

describe('pre-flight checklist', () => {
  it('each item ok or failed, with its label, value and the refusal text', () => {
    applyLang('en');
    render(
      <Checklist
        checks={[
          { item: 'online', ok: true, reason: null, value: null },
          { item: 'battery', ok: false, reason: 4, value: 42 },
          { item: 'wind', ok: true, reason: null, value: 3.2 },
          { item: 'tf_card', ok: false, reason: 5, value: null },
        ]}
      />,
    );
    expect(screen.getByTestId('check-online').dataset.ok).toBe('1');
    expect(screen.getByTestId('check-online').textContent).toContain('Device online');
    const battery = screen.getByTestId('check-battery');
    expect(battery.dataset.ok).toBe('0');
    expect(battery.textContent).toContain('42%');
    expect(screen.getByTestId('check-wind').textContent).toContain('3.2 m/s');
    expect(battery.textContent).toContain('Battery below 50%: charge the drone before takeoff');
    expect(screen.getByTestId('check-tf_card').textContent).toContain('No TF card in the drone');
    expect(screen.getByTestId('check-wind').textContent).not.toContain('Wind above');
  });

  it('labels the positioning of a drone asleep in its nest in the page language, still as passed', () => {
    const checks = [{ item: 'rtk', ok: true, reason: null, value: 'powered_off' }];
    applyLang('zh');
    render(<Checklist checks={checks} />);
    const zh = screen.getByTestId('check-rtk');
    expect(zh.dataset.ok).toBe('1');
    expect(zh.textContent).toContain('无人机在机巢内关机，起飞时检查');
    expect(zh.textContent).not.toMatch(/off/i);
    cleanup();
    applyLang('en');
    render(<Checklist checks={[...checks, { item: 'battery', ok: true, reason: null, value: 80 }]} />);
    expect(screen.getByTestId('check-rtk').textContent).toContain('Drone powered off in the nest; checked at takeoff');
    // The older server's word reads the same.
    expect(checkValueText('rtk', 'off', 'zh')).toBe('无人机在机巢内关机，起飞时检查');
    expect(checkValueText('rtk', 'rtk', 'en')).toBe('RTK');
    expect(checkValueText('rtk', 12, 'en')).toBe('GPS 12');
  });
});
