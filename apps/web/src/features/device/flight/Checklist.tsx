import type { ReactNode } from 'react';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { PreflightItem, commandReasonText, formatPercent, formatSizeKb, formatSpeed, type Lang, type PreflightCheck, type Text } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';

/**
 * Words the server sends as a check's value: 'rtk' (an RTK fix), 'powered_off' (the drone sleeps in its
 * nest; the takeoff flow powers it on and the device checks positioning then). 'off' is the older
 * server's word for 'powered_off'.
 */
const POWERED_OFF: Text = { zh: '无人机在机巢内关机，起飞时检查', en: 'Drone powered off in the nest; checked at takeoff' };
const VALUE_WORDS: ReadonlyMap<string, Text> = new Map([
  ['rtk', { zh: 'RTK', en: 'RTK' }],
  ['powered_off', POWERED_OFF],
  ['off', POWERED_OFF],
]);

/** A measured value as the operator reads it (sizes in MB, wind in m/s, rain in mm/h, RTK or GPS satellites). */
export function checkValueText(item: string, value: number | string, lang: Lang): string {
  if (typeof value !== 'number') return VALUE_WORDS.get(value)?.[lang] ?? value;
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
    <ul className="preflight-list plain-stack" data-testid="preflight-list">
      {checks.map((c) => (
        <li key={c.item} className={c.ok ? 'check-ok' : 'check-failed'} data-testid={`check-${c.item}`} data-ok={c.ok ? '1' : '0'}>
          {c.ok ? <CheckCircleFilled /> : <CloseCircleFilled />}
          <span className="check-label">{PreflightItem.has(c.item) ? PreflightItem.label(c.item, lang) : c.item}</span>
          {c.value !== null && <span className="check-value">{checkValueText(c.item, c.value, lang)}</span>}
          {!c.ok && c.reason !== null && <span className="check-reason">{commandReasonText(c.reason, lang)}</span>}
        </li>
      ))}
    </ul>
  );
}
