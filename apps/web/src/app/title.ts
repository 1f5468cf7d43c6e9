import { useEffect } from 'react';
import { t } from '../shared/i18n';

/** Page title: '<product> - <page>' in the current language (SPEC section 1). */
export function useDocumentTitle(page: string): void {
  useEffect(() => {
    document.title = page ? t('app.pageTitle', { page }) : t('app.name');
  }, [page]);
}
