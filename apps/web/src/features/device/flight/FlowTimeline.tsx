import { useEffect, useState, type ReactNode } from 'react';
import { Tag } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, LoadingOutlined, MinusCircleOutlined, ClockCircleOutlined } from '@ant-design/icons';
import { AlternateError, FlowError, FlowKind, FlowState, FlowStep, FlowStepState, formatMmSs, nestActionText, type FlowProgress } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';

const ICONS: Record<string, ReactNode> = {
  waiting: <ClockCircleOutlined />,
  running: <LoadingOutlined />,
  done: <CheckCircleFilled />,
  failed: <CloseCircleFilled />,
  skipped: <MinusCircleOutlined />,
};

/** Seconds since `since` (ms), ticking once a second while `on`: the running step's elapsed between pushes. */
function useTicker(on: boolean, since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (!on) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [on, since]);
  return Math.max(0, (now - since) / 1000);
}

/** The nest flow (push 320) as a vertical list of steps with state, elapsed time, the moving part and errors. */
export function FlowTimeline({ flow }: { flow: FlowProgress }): ReactNode {
  const { t, lang } = useI18n();
  // When this progress arrived: the running step's elapsed goes on from there locally (pushes come per step).
  const [receivedAt, setReceivedAt] = useState(() => Date.now());
  useEffect(() => setReceivedAt(Date.now()), [flow]);
  const ticking = flow.state === 'running';
  const extra = useTicker(ticking, receivedAt);
  const errorText =
    flow.error === null ? null : flow.kind === 'alternate' ? AlternateError.label(flow.error, lang) : FlowError.label(flow.error, lang);

  return (
    <div className={`flow-timeline flow-${flow.state}`} data-testid="flow-timeline" data-flow-state={flow.state} data-kind={flow.kind}>
      <div className="flow-head">
        <span className="flow-kind">{FlowKind.label(flow.kind, lang)}</span>
        <Tag color={flow.state === 'failed' || flow.state === 'interrupted' ? 'error' : flow.state === 'done' ? 'success' : flow.state === 'paused' ? 'warning' : 'processing'} data-testid="flow-state">
          {FlowState.label(flow.state, lang)}
        </Tag>
        <span className="flow-total">{formatMmSs(flow.elapsed + (ticking ? extra : 0))}</span>
      </div>
      {flow.state === 'paused' && (
        <div className="flow-paused" data-testid="flow-paused">
          {t('device.flight.pausedBadge')}
        </div>
      )}
      <ol className="flow-steps">
        {flow.steps.map((s, i) => {
          const running = s.state === 'running';
          const elapsed = s.elapsed + (running && ticking ? extra : 0);
          return (
            <li key={`${s.step}-${i}`} className={`flow-step step-${s.state}`} data-testid={`flow-step-${s.step}`} data-state={s.state}>
              <span className="flow-step-icon" aria-label={FlowStepState.label(s.state, lang)}>
                {ICONS[s.state]}
              </span>
              <div className="flow-step-body">
                <div className="flow-step-line">
                  <span className="flow-step-label">{FlowStep.label(s.step, lang)}</span>
                  <span className="flow-step-time">{s.state === 'waiting' || s.state === 'skipped' ? FlowStepState.label(s.state, lang) : formatMmSs(elapsed)}</span>
                </div>
                {running && flow.tip && (
                  <div className="flow-step-tip" data-testid="flow-tip">
                    {nestActionText(flow.tip.code, flow.tip.part, lang)}
                  </div>
                )}
                {s.state === 'failed' && errorText && (
                  <div className="flow-step-error" data-testid="flow-error">
                    {errorText}
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      {flow.error !== null && !flow.steps.some((s) => s.state === 'failed') && errorText && (
        <div className="flow-step-error" data-testid="flow-error">
          {errorText}
        </div>
      )}
    </div>
  );
}
