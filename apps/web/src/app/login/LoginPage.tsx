import { useRef, useState, type ReactNode } from 'react';
import { Button, Checkbox, Form } from 'antd';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import LockOutlined from '@ant-design/icons/LockOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import { useLocation, useNavigate } from 'react-router-dom';
import { PASSWORD_MAX, PASSWORD_MIN, isAccount, userSchema, type Lang } from '@nest/contracts';
import { applyLang, saveLang, useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { RequestError, call, requestStamp, sealWithPasswordKey } from '../../shared/request';
import { signIn } from '../../shared/session';
import { KEYS, storage } from '../../shared/storage';
import { whenIdle } from '../../shared/lazy';
import { prefetchAfterSignIn, preloadAfterSignIn } from '../afterSignIn';
import { loadMenu } from '../menu/store';
import { Logo } from '../shell/Logo';
import { useDocumentTitle } from '../title';
import { DroneScene } from './DroneScene';
import { targetAfterLogin } from './loginState';
import './login.css';

const LANG_CHOICES: readonly (readonly [Lang, 'settings.languageZh' | 'settings.languageEn'])[] = [
  ['zh', 'settings.languageZh'],
  ['en', 'settings.languageEn'],
];

interface Values {
  account: string;
  password: string;
  remember: boolean;
}

export default function LoginPage(): ReactNode {
  const { t, lang } = useI18n();
  const navigate = useNavigate();
  const location = useLocation();
  const [loading, setLoading] = useState(false);
  const remembered = storage.get(KEYS.rememberAccount);
  useDocumentTitle(t('route.login'));

  // The code of the screen after sign-in is fetched once the user starts filling in the form (when the
  // page is idle), and at the latest on submit: it loads while the sign-in call runs, not after.
  const preloading = useRef<'no' | 'soon' | 'yes'>('no');
  const preload = (now: boolean) => {
    const start = () => {
      if (preloading.current === 'yes') return;
      preloading.current = 'yes';
      preloadAfterSignIn(targetAfterLogin(location.state));
    };
    if (now) start();
    else if (preloading.current === 'no') {
      preloading.current = 'soon';
      whenIdle(start);
    }
  };

  const changeLang = (next: Lang) => {
    saveLang(next);
    applyLang(next);
  };

  const submit = async (values: Values) => {
    const account = values.account.trim();
    preload(true);
    setLoading(true);
    try {
      const stamp = requestStamp();
      const password = await sealWithPasswordKey(values.password, stamp);
      const data = await call('login', { account, password }, { timestamp: stamp });
      const parsed = userSchema.safeParse(data);
      if (!parsed.success) {
        notify().error(t('request.badResponse'));
        return;
      }
      if (values.remember) storage.set(KEYS.rememberAccount, account);
      else storage.remove(KEYS.rememberAccount);
      await signIn(parsed.data);
      // The guard waits for the menu before it shows anything, the screen for its data: their requests
      // start now, beside the code's fetch and the shell's render.
      const target = targetAfterLogin(location.state);
      loadMenu().catch(() => undefined);
      prefetchAfterSignIn(target);
      void navigate(target, { replace: true });
    } catch (err) {
      // Call failures were shown by the request layer; a failed key fetch or sealing is a network problem.
      if (!(err instanceof RequestError)) notify().error(t('request.network'));
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="login-page">
      <div className="login-backdrop" aria-hidden="true" />
      <header className="login-top">
        <div className="login-brand">
          <Logo size={36} />
          <span>{t('app.name')}</span>
        </div>
        <div className="login-lang" role="group" aria-label={t('login.language')}>
          {LANG_CHOICES.map(([value, key]) => (
            <button
              key={value}
              type="button"
              className={value === lang ? 'is-current' : undefined}
              aria-pressed={value === lang}
              data-testid={`login-language-${value}`}
              onClick={() => changeLang(value)}
            >
              {t(key)}
            </button>
          ))}
        </div>
      </header>

      <main className="login-main">
        <section className="login-hero">
          <h1 className="login-hero-title">{t('app.name')}</h1>
          <p className="login-hero-tagline">{t('login.hero.tagline')}</p>
          <DroneScene />
          <ul className="login-hero-features">
            <li>{t('login.hero.featureTakeoff')}</li>
            <li>{t('login.hero.featurePlanning')}</li>
            <li>{t('login.hero.featureResults')}</li>
          </ul>
        </section>

        <section className="login-panel" aria-labelledby="login-title">
          <h2 id="login-title" className="login-panel-title">
            {t('login.form.title')}
          </h2>
          <p className="login-panel-subtitle">{t('login.form.subtitle')}</p>
          <Form<Values>
            layout="vertical"
            size="large"
            requiredMark={false}
            initialValues={{ account: remembered ?? '', password: '', remember: remembered !== null }}
            onFinish={(values) => void submit(values)}
            onFocus={() => preload(false)}
          >
            <Form.Item
              name="account"
              label={t('login.form.account')}
              rules={[
                { required: true, whitespace: true, message: t('login.validate.accountRequired') },
                {
                  validator: (_rule, value: string | undefined) =>
                    !value?.trim() || isAccount(value.trim())
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('login.validate.accountFormat'))),
                },
              ]}
            >
              <Input
                data-testid="login-account"
                prefix={<UserOutlined />}
                placeholder={t('login.form.accountPlaceholder')}
                autoComplete="username"
                maxLength={128}
              />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('login.form.password')}
              rules={[
                { required: true, message: t('login.validate.passwordRequired') },
                {
                  min: PASSWORD_MIN,
                  max: PASSWORD_MAX,
                  message: t('login.validate.passwordLength', { min: PASSWORD_MIN, max: PASSWORD_MAX }),
                },
              ]}
            >
              <Password
                data-testid="login-password"
                prefix={<LockOutlined />}
                placeholder={t('login.form.passwordPlaceholder')}
                autoComplete="current-password"
              />
            </Form.Item>
            <Form.Item name="remember" valuePropName="checked" className="login-remember">
              <Checkbox data-testid="login-remember">{t('login.form.remember')}</Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={loading} data-testid="login-submit" className="login-submit">
              {t('login.form.submit')}
            </Button>
          </Form>
        </section>
      </main>
    </div>
  );
}
