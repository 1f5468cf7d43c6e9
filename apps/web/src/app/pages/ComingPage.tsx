import type { ReactNode } from 'react';
import { Button } from 'antd';
import { Link } from 'react-router-dom';
import { useI18n } from '../../shared/i18n';
import { HOME_PATH } from '../screens';
import './pages.css';

/** Placeholder of a screen that is not built yet: its title and a plain statement, nothing fake. */
export function ComingPage({ title, fullScreen = false }: { title: string; fullScreen?: boolean }): ReactNode {
  const { t } = useI18n();
  return (
    <section className={`coming-page${fullScreen ? ' is-full' : ''}`} data-testid="coming-page">
      <div className="coming-card">
        <svg className="coming-mark" viewBox="0 0 120 120" aria-hidden="true">
          <circle cx="60" cy="60" r="54" className="ring" />
          <circle cx="60" cy="60" r="38" className="ring ring-inner" />
          <g className="crane">
            <path d="M34 86h52M44 86V50l16-14 16 14v36" />
            <path d="M52 86V64h16v22" />
          </g>
        </svg>
        <span className="coming-badge">{t('coming.badge')}</span>
        <h1 className="coming-title">{title}</h1>
        <p className="coming-subtitle">{t('coming.subtitle')}</p>
        <p className="coming-text">{t('coming.description')}</p>
        {fullScreen && (
          <Link to={HOME_PATH}>
            <Button type="primary">{t('coming.backHome')}</Button>
          </Link>
        )}
      </div>
    </section>
  );
}
