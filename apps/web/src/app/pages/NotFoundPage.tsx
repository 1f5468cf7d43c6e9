import type { ReactNode } from 'react';
import { Button } from 'antd';
import { Link } from 'react-router-dom';
import { useI18n } from '../../shared/i18n';
import { useDocumentTitle } from '../title';
import { HOME_PATH } from '../screens';
import './pages.css';

export function NotFoundPage(): ReactNode {
  const { t } = useI18n();
  useDocumentTitle(t('route.notFound'));
  return (
    <section className="coming-page" data-testid="not-found-page">
      <div className="coming-card">
        <div className="notfound-code">404</div>
        <h1 className="coming-title">{t('route.notFound')}</h1>
        <p className="coming-text">{t('notFound.description')}</p>
        <Link to={HOME_PATH}>
          <Button type="primary">{t('notFound.backHome')}</Button>
        </Link>
      </div>
    </section>
  );
}
