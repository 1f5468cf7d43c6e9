import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useI18n } from '../../shared/i18n';
import './loadFailed.css';

/**
 * What the browsers say when a lazy chunk (script or its CSS) cannot be fetched: a page open across an
 * upgrade asks for a hashed file the new build no longer has, or the network dropped.
 */
const CHUNK_FAILURE = /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk .* failed/i;

export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return CHUNK_FAILURE.test(text);
}

const reloadPage = (): void => window.location.reload();

/**
 * The message shown instead of a screen whose code failed to load (or threw while rendering), with a
 * reload button. Plain markup and CSS: it must show even when the component library's chunks are the ones
 * that failed.
 */
export function LoadFailed({ error, screen = false, onReload = reloadPage }: { error: unknown; screen?: boolean; onReload?: () => void }): ReactNode {
  const { t } = useI18n();
  return (
    <div className={`load-failed${screen ? ' is-screen' : ''}`} role="alert" data-testid="load-failed">
      <div className="load-failed-card">
        <h1 className="load-failed-title">{t('app.loadFailedTitle')}</h1>
        <p className="load-failed-text">{t(isChunkLoadError(error) ? 'app.loadFailedChunk' : 'app.loadFailedError')}</p>
        <button type="button" className="load-failed-reload" data-testid="load-failed-reload" onClick={onReload}>
          {t('app.reload')}
        </button>
      </div>
    </div>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /** Whole-window message (no shell around it). */
  screen?: boolean;
  /** Render nothing on failure (parts that are not a screen, such as the message hosts). */
  silent?: boolean;
  onReload?: () => void;
}

/**
 * Catches a lazy screen whose import failed (React rethrows the rejected import while rendering) and any
 * other render error below it, so the user gets a message and a reload button instead of a blank page.
 * Give it a `key` per screen: a new screen starts without the previous screen's failure.
 */
export class LoadBoundary extends Component<BoundaryProps, { error: unknown; failed: boolean }> {
  override state = { error: null as unknown, failed: false };

  static getDerivedStateFromError(error: unknown): { error: unknown; failed: boolean } {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('screen failed to load or render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    if (this.props.silent) return null;
    return <LoadFailed error={this.state.error} screen={this.props.screen} onReload={this.props.onReload} />;
  }
}
