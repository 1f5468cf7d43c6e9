import type { ReactNode } from 'react';
import { Progress, Tag } from 'antd';
import {
  CalibrationItem,
  CalibrationResult,
  DeviceOpState,
  MaintenanceStage,
  NtripState,
  RtkStatus,
  opReasonText,
  type DeviceOp,
} from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';

export const STATE_COLOR: Record<DeviceOp['state'], string> = {
  running: 'processing',
  ok: 'success',
  failed: 'error',
  timeout: 'warning',
  offline: 'default',
};

export function OpStateTag({ op }: { op: DeviceOp }): ReactNode {
  const { lang } = useI18n();
  return (
    <Tag color={STATE_COLOR[op.state]} data-testid="op-state" data-state={op.state}>
      {DeviceOpState.label(op.state, lang)}
    </Tag>
  );
}

/** What an operation found or why it did not succeed, in one line (or a few tags). */
export function OpDetail({ op }: { op: DeviceOp }): ReactNode {
  const { t, lang } = useI18n();
  const o = op.outcome;
  const parts: ReactNode[] = [];
  if (o.results) {
    for (const item of ['gyroscope', 'compass', 'acceleration'] as const) {
      const r = o.results[item];
      if (r === undefined) continue;
      parts.push(
        <Tag key={item} color={r === 0 ? 'green' : 'red'} data-testid={`result-${item}`} data-result={r}>
          {CalibrationItem.label(item, lang)}: {CalibrationResult.label(r, lang)}
        </Tag>,
      );
    }
  }
  if (op.file) parts.push(<span key="file">{op.file.name}</span>);
  if (o.firmware) parts.push(<span key="fw">{t('maintenance.op.firmware', { version: o.firmware })}</span>);
  if (o.ntrip_state !== undefined) parts.push(<span key="ntrip">{t('maintenance.op.ntrip', { state: NtripState.label(o.ntrip_state, lang) })}</span>);
  if (o.rtk_status !== undefined) parts.push(<span key="rtk">{t('maintenance.op.rtk', { state: RtkStatus.label(o.rtk_status, lang) })}</span>);
  const reason = opReasonText(op, lang);
  if (reason) {
    parts.push(
      <span key="reason" className="maint-reason" data-testid="op-reason">
        {reason}
      </span>,
    );
  }
  return <span className="maint-detail">{parts.length ? parts : null}</span>;
}

/** The latest operation of a kind: state, progress bar (live from push 390), stage and outcome. */
export function OpStatus({ op }: { op: DeviceOp | null }): ReactNode {
  const { t, lang } = useI18n();
  if (!op) return <div className="maint-status maint-muted">{t('maintenance.op.none')}</div>;
  const stage = op.outcome.stage && MaintenanceStage.has(op.outcome.stage) ? MaintenanceStage.label(op.outcome.stage, lang) : null;
  const status = op.state === 'running' ? 'active' : op.state === 'ok' ? 'success' : 'exception';
  return (
    <div className="maint-status" data-testid={`status-${op.kind}`} data-state={op.state} data-progress={op.progress}>
      <div className="maint-status-head">
        <span className="maint-muted">{t('maintenance.op.latest')}</span>
        <OpStateTag op={op} />
        {stage && <span>{stage}</span>}
      </div>
      <Progress percent={op.progress} status={status} size="small" />
      <OpDetail op={op} />
    </div>
  );
}
