import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { flowProgressPush, type FlowProgress } from '@nest/contracts';
import { applyLang } from '../../../shared/i18n';
import { FlowTimeline } from './FlowTimeline';

afterEach(cleanup);

const push = {
  sn_id: 'N1',
  flow: {
    flow_id: 'f1',
    kind: 'takeoff',
    state: 'failed',
    steps: [
      { step: 'drone_start', state: 'done', elapsed: 12 },
      { step: 'route_upload', state: 'done', elapsed: 65 },
      { step: 'hatch_open', state: 'failed', elapsed: 30 },
      { step: 'platform_rise', state: 'waiting', elapsed: 0 },
    ],
    current: 2,
    error: 3,
    tip: null,
    started_at: 1,
    elapsed: 107,
  },
};

describe('flow timeline from a 320 payload', () => {
  it('labels, states, mm:ss elapsed and the failed step with its FlowError text', () => {
    applyLang('en');
    const flow = flowProgressPush.parse(push).flow as FlowProgress;
    render(<FlowTimeline flow={flow} />);
    expect(screen.getByTestId('flow-timeline').dataset.flowState).toBe('failed');
    expect(screen.getByTestId('flow-step-drone_start').textContent).toContain('Drone start');
    expect(screen.getByTestId('flow-step-route_upload').textContent).toContain('01:05');
    expect(screen.getByTestId('flow-step-hatch_open').dataset.state).toBe('failed');
    expect(screen.getByTestId('flow-error').textContent).toBe('The hatch did not open');
    expect(screen.getByTestId('flow-step-platform_rise').textContent).toContain('Waiting');
    expect(screen.getByTestId('flow-state').textContent).toBe('Failed');
  });

  it('running step shows the nest action tip; paused flow shows the badge (Chinese)', () => {
    applyLang('zh');
    const flow: FlowProgress = {
      ...(push.flow as FlowProgress),
      state: 'paused',
      error: null,
      tip: { code: 3, part: 'hatch' },
      steps: [
        { step: 'drone_start', state: 'done', elapsed: 5 },
        { step: 'hatch_open', state: 'running', elapsed: 3 },
      ],
    };
    render(<FlowTimeline flow={flow} />);
    expect(screen.getByTestId('flow-paused').textContent).toBe('已暂停');
    expect(screen.getByTestId('flow-tip').textContent).toContain('舱门');
    expect(screen.getByTestId('flow-step-hatch_open').textContent).toContain('舱门打开');
    expect(screen.queryByTestId('flow-error')).toBeNull();
  });

  it('alternate flows name their AlternateError', () => {
    applyLang('en');
    const flow: FlowProgress = { ...(push.flow as FlowProgress), kind: 'alternate', error: 7, steps: [{ step: 'altn_decide', state: 'failed', elapsed: 2 }] };
    render(<FlowTimeline flow={flow} />);
    expect(screen.getByTestId('flow-error').textContent).toBe('Wind too strong');
  });
});
