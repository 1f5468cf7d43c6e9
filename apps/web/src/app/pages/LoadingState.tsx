import type { ReactNode } from 'react';
import { useI18n } from '../../shared/i18n';
import './loading.css';

/**
 * A centred spinner with a line of text: lazy chunks, menu loading, the language-switch mask.
 * Plain CSS on purpose: it is on the first screen, before any component library code has loaded.
 */
export function LoadingState({ text, screen = false, mask = false }: { text?: string; screen?: boolean; mask?: boolean }): ReactNode {
  const { t } = useI18n();
  return (
    <div className={`app-state${screen ? ' is-screen' : ''}${mask ? ' is-mask' : ''}`} role="status" aria-live="polite">
      <span className="app-spinner" aria-hidden="true" />
      <span>{text ?? t('app.loading')}</span>
    </div>
  );
}
