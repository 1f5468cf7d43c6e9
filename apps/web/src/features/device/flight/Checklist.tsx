import type { ReactNode } from 'react';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { PreflightItem, commandReasonText, formatPercent, formatSizeKb, formatSpeed, type PreflightCheck } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';

/** A measured value as the operator reads it (sizes in MB, wind in m/s, rain in mm/h, RTK or GPS satellites). */
export function checkValueText(item: string, value: number | string): string {
  if (typeof value !== 'number') return value === 'rtk' ? 'RTK' : value;
  switch (item) {
    case 'battery':
      return formatPercent(value);
    case 'tf_card':
    case 'tf_space':
      return formatSizeKb(value * 1024);
    case 'wind':
      return formatSpeed(value);
    case 'rain':
      return `${value.toFixed(1)} mm/h`;
    case 'rtk':
      return `GPS ${value}`;
    default:
      return String(value);
  }
}

/** The pre-flight checklist (/flight/check): each item ok or failed, with the refusal text when failed. */
export function Checklist({ checks }: { checks: readonly PreflightCheck[] }): ReactNode {
  const { lang } = useI18n();
  return (
    <ul className="preflight-list" data-testid="preflight-list">
      {checks.map((c) => (
        <li key={c.item} className={c.ok ? 'check-ok' : 'check-failed'} data-testid={`check-${c.item}`} data-ok={c.ok ? '1' : '0'}>
          {c.ok ? <CheckCircleFilled /> : <CloseCircleFilled />}
          <span className="check-label">{PreflightItem.has(c.item) ? PreflightItem.label(c.item, lang) : c.item}</span>
          {c.value !== null && <span className="check-value">{checkValueText(c.item, c.value)}</span>}
          {!c.ok && c.reason !== null && <span className="check-reason">{commandReasonText(c.reason, lang)}</span>}
        </li>
      ))}
    </ul>
  );
}
