import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, Space, Steps, Tag, Typography } from 'antd';
import { userSchema, type DjiPilotLogin, type Lang } from '@nest/contracts';
import { applyLang, useI18n } from '../../shared/i18n';
import { RequestError, call, requestStamp, sealWithPasswordKey } from '../../shared/request';
import { clearSession, getUser, restoreUser, signIn, useUser } from '../../shared/session';
import { BridgeError, CONNECT_STEPS, connectPilot, connectState, findBridge, isConnected, remoteControllerSn, type DjiBridge } from './bridge';
import './pilot.css';

/** The global function Pilot 2's thing component calls with its connect state. */
const CONNECT_CALLBACK = 'nestPilotConnectCallback';

const STEPS = ['sn', 'server', ...CONNECT_STEPS] as const;
type Step = (typeof STEPS)[number];

/** How far the sequence got: steps before `at` are done; `error` is the failure of step `at`. */
interface Progress {
  at: number;
  error: string | null;
  running: boolean;
}

/** Pilot 2's web view reports the app's language as the browser language. */
const langOfWebView = (): Lang => (globalThis.navigator?.language?.toLowerCase().startsWith('zh') ? 'zh' : 'en');

function SignInForm(): ReactNode {
  const { t } = useI18n();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (values: { account: string; password: string }) => {
    setLoading(true);
    setError(null);
    try {
      const stamp = requestStamp();
      const password = await sealWithPasswordKey(values.password, stamp);
      const data = await call('login', { account: values.account.trim(), password }, { timestamp: stamp, quiet: true });
      const parsed = userSchema.safeParse(data);
      if (!parsed.success) throw new Error(t('request.badResponse'));
      await signIn(parsed.data);
    } catch (err) {
      setError(err instanceof RequestError ? err.text : t('pilot.signIn.failed'));
    } finally {
      setLoading(false);
    }
  };
  return (
    <section className="pilot-card" aria-labelledby="pilot-sign-in">
      <h2 id="pilot-sign-in">{t('pilot.signIn.title')}</h2>
      {error && <Alert type="error" showIcon title={error} data-testid="pilot-sign-in-error" />}
      <Form layout="vertical" size="large" requiredMark={false} onFinish={(values: { account: string; password: string }) => void submit(values)}>
        <Form.Item name="account" label={t('pilot.signIn.account')} rules={[{ required: true, whitespace: true, message: t('pilot.signIn.accountRequired') }]}>
          <Input autoComplete="username" data-testid="pilot-account" />
        </Form.Item>
        <Form.Item name="password" label={t('pilot.signIn.password')} rules={[{ required: true, message: t('pilot.signIn.passwordRequired') }]}>
          <Input.Password autoComplete="current-password" data-testid="pilot-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={loading} data-testid="pilot-sign-in">
          {t('pilot.signIn.submit')}
        </Button>
      </Form>
    </section>
  );
}

function Connect({ bridge }: { bridge: DjiBridge }): ReactNode {
  const { t } = useI18n();
  const [progress, setProgress] = useState<Progress>({ at: 0, error: null, running: true });
  const [rcSn, setRcSn] = useState<string | null>(null);
  const [connected, setConnected] = useState<boolean | null>(null);
  // A dock set up from this controller gets the login Pilot 2 holds: then it is the dock's.
  const [dockSn, setDockSn] = useState('');
  const [dockInput, setDockInput] = useState('');
  const runs = useRef(0);

  // Pilot 2 calls the named global function whenever the thing component connects or drops.
  useEffect(() => {
    const scope = globalThis as unknown as Record<string, unknown>;
    scope[CONNECT_CALLBACK] = (arg: unknown) => setConnected(isConnected(arg));
    return () => {
      delete scope[CONNECT_CALLBACK];
    };
  }, []);

  const run = useCallback(async () => {
    const run = ++runs.current;
    const current = () => run === runs.current;
    let at = 0;
    setProgress({ at, error: null, running: true });
    setConnected(null);
    try {
      const sn = remoteControllerSn(bridge);
      setRcSn(sn);
      at = 1;
      if (current()) setProgress({ at, error: null, running: true });
      // New broker credentials each time: the server keeps no password to hand out again.
      const login: DjiPilotLogin = await call('deviceDjiPilot', dockSn ? { rc_sn: sn, dock_sn: dockSn } : { rc_sn: sn }, { quiet: true });
      if (!current()) return;
      at = 2;
      connectPilot(bridge, {
        appId: login.app_id,
        appKey: login.app_key,
        appLicense: login.app_license,
        workspaceId: login.workspace_id,
        platformName: login.platform_name,
        workspaceName: login.workspace_name,
        desc: login.device_name,
        mqttUrl: login.mqtt_url,
        username: login.username,
        password: login.password,
        connectCallback: CONNECT_CALLBACK,
      });
      setProgress({ at: STEPS.length, error: null, running: false });
      setConnected((known) => known ?? connectState(bridge));
    } catch (err) {
      if (!current()) return;
      if (err instanceof RequestError && err.kind === 'expired') {
        clearSession();
        return;
      }
      if (err instanceof BridgeError) at = Math.max(STEPS.indexOf(err.step as Step), at);
      const text = err instanceof BridgeError ? `${err.answer.message || err.answer.code}` : err instanceof RequestError ? err.text : String(err);
      setProgress({ at, error: text, running: false });
    }
  }, [bridge, dockSn]);

  useEffect(() => {
    void run();
  }, [run]);

  const status = (i: number): 'wait' | 'process' | 'finish' | 'error' =>
    i < progress.at ? 'finish' : i > progress.at ? 'wait' : progress.error ? 'error' : progress.running ? 'process' : 'wait';
  const done = progress.at === STEPS.length;

  return (
    <section className="pilot-card" aria-live="polite">
      {rcSn && <Typography.Text type="secondary">{t('pilot.rcSn', { sn: rcSn })}</Typography.Text>}
      <Steps
        orientation="vertical"
        size="small"
        current={Math.min(progress.at, STEPS.length - 1)}
        data-testid="pilot-steps"
        items={STEPS.map((step, i) => ({
          title: t(`pilot.step.${step}`),
          status: status(i),
          content: i === progress.at && progress.error ? <span data-testid="pilot-error">{progress.error}</span> : undefined,
        }))}
      />
      <div className="pilot-state">
        {done && connected === true && (
          <Tag color="success" data-testid="pilot-connected">
            {t('pilot.connected')}
          </Tag>
        )}
        {done && connected !== true && (
          <Tag color="default" data-testid="pilot-disconnected">
            {connected === null ? t('pilot.connecting') : t('pilot.disconnected')}
          </Tag>
        )}
        <Button type="primary" size="large" block disabled={progress.running} onClick={() => void run()} data-testid="pilot-retry">
          {t('pilot.retry')}
        </Button>
      </div>
      <div className="pilot-dock">
        <label htmlFor="pilot-dock-sn">{t('pilot.dock.label')}</label>
        {dockSn && <Typography.Text type="secondary">{t('pilot.dock.current', { sn: dockSn })}</Typography.Text>}
        <Space.Compact block>
          <Input
            id="pilot-dock-sn"
            size="large"
            value={dockInput}
            placeholder={t('pilot.dock.placeholder')}
            onChange={(e) => setDockInput(e.target.value)}
            data-testid="pilot-dock-sn"
          />
          <Button size="large" disabled={progress.running} onClick={() => setDockSn(dockInput.trim())} data-testid="pilot-dock-apply">
            {t('pilot.dock.apply')}
          </Button>
        </Space.Compact>
      </div>
    </section>
  );
}

/**
 * The page DJI Pilot 2 opens from Cloud Service → Open Platform (`/nest/pilot`): the operator signs in with a
 * console account, then the page reads the remote controller's sn, asks the server for its broker login
 * (/device/dji/pilot) and hands it to Pilot 2 through the JSBridge, showing each step and the connect state.
 * In an ordinary browser (no bridge) it says how to open it from Pilot 2.
 */
export default function PilotPage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const [bridge] = useState(() => findBridge(globalThis));

  useEffect(() => {
    if (bridge) applyLang(langOfWebView());
    // Signed in before on this controller: the saved user (its token in the cookie) is used again; an
    // expired session comes back to the sign-in form.
    if (!getUser()) restoreUser();
  }, [bridge]);
  useEffect(() => {
    document.title = t('pilot.title');
  }, [t]);

  return (
    <div className="pilot-page">
      <header className="pilot-top">
        <h1>{t('pilot.title')}</h1>
        <div className="pilot-lang" role="group" aria-label={t('pilot.language')}>
          {(['zh', 'en'] as const).map((value) => (
            <button key={value} type="button" aria-pressed={value === lang} data-testid={`pilot-language-${value}`} onClick={() => applyLang(value)}>
              {value === 'zh' ? '中文' : 'EN'}
            </button>
          ))}
        </div>
      </header>
      {!bridge ? (
        <section className="pilot-card" data-testid="pilot-no-bridge">
          <Alert type="warning" showIcon title={t('pilot.noBridge.title')} description={t('pilot.noBridge.body')} />
          <p>{t('pilot.noBridge.how')}</p>
          <Typography.Paragraph code copyable>
            {globalThis.location?.href}
          </Typography.Paragraph>
          <p>{t('pilot.noBridge.register')}</p>
        </section>
      ) : !user ? (
        <SignInForm />
      ) : (
        <>
          <Connect bridge={bridge} />
          <Button type="link" block onClick={clearSession} data-testid="pilot-sign-out">
            {t('pilot.signOut')}
          </Button>
        </>
      )}
    </div>
  );
}
