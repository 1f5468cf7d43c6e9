import type { ReactNode } from 'react';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { PreflightItem, commandReasonText, type PreflightCheck } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';

/** The pre-flight checklist (/flight/check): each item ok or failed, with the refusal text when failed. */
export function Checklist({ checks }: { checks: readonly PreflightCheck[] }): ReactNode {
  const { lang } = useI18n();
  return (
    <ul className="preflight-list" data-testid="preflight-list">
      {checks.map((c) => (
        <li key={c.item} className={c.ok ? 'check-ok' : 'check-failed'} data-testid={`check-${c.item}`} data-ok={c.ok ? '1' : '0'}>
          {c.ok ? <CheckCircleFilled /> : <CloseCircleFilled />}
          <span className="check-label">{PreflightItem.has(c.item) ? PreflightItem.label(c.item, lang) : c.item}</span>
          {c.value !== null && <span className="check-value">{c.item === 'battery' ? `${c.value}%` : String(c.value)}</span>}
          {!c.ok && c.reason !== null && <span className="check-reason">{commandReasonText(c.reason, lang)}</span>}
        </li>
      ))}
    </ul>
  );
}
