import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { applyLang } from '../../../shared/i18n';
import { Checklist } from './Checklist';

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
});
