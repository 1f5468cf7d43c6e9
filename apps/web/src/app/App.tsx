import { Suspense, lazy, useEffect, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import ConfigProvider from 'antd/es/config-provider';
import antdZh from 'antd/es/locale/zh_CN';
import antdEn from 'antd/es/locale/en_US';
import { htmlLangOf, useI18n } from '../shared/i18n';
import { useModalsWanted } from '../shared/notify';
import { themeClass, themeConfig, useReducedMotion, useTheme } from '../shared/theme';
import { BASENAME } from './basename';
import { useLanguageSwitching } from './language';
import { LoadBoundary } from './pages/LoadFailed';
import { LoadingState } from './pages/LoadingState';
import { AppRoutes } from './routes';

const MessageHost = lazy(() => import('./notify/MessageHost'));
const ModalHost = lazy(() => import('./notify/ModalHost'));

function LanguageMask(): ReactNode {
  const { t } = useI18n();
  return useLanguageSwitching() ? <LoadingState screen mask text={t('app.switchingLanguage')} /> : null;
}

export function App(): ReactNode {
  const { lang } = useI18n();
  const theme = useTheme();
  const reducedMotion = useReducedMotion();
  const modalsWanted = useModalsWanted();
  useEffect(() => {
    document.documentElement.lang = htmlLangOf(lang);
    document.documentElement.dataset.theme = theme;
  }, [lang, theme]);
  return (
    <div id="app-root" className={`app-root ${themeClass(theme)}`}>
      <ConfigProvider locale={lang === 'en' ? antdEn : antdZh} theme={themeConfig(theme, reducedMotion)}>
        {/* A host whose chunk fails costs its toasts or boxes, never the page. */}
        <LoadBoundary silent>
          <Suspense fallback={null}>
            <MessageHost />
            {modalsWanted && <ModalHost />}
          </Suspense>
        </LoadBoundary>
        <BrowserRouter basename={BASENAME}>
          <AppRoutes />
        </BrowserRouter>
        <LanguageMask />
      </ConfigProvider>
    </div>
  );
}
