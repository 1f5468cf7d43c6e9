import { useSyncExternalStore } from 'react';
import {
  APP_CODE,
  APP_IDS,
  DEVICE_PUSH_FUNCTION,
  PUSH_PATH,
  SUPER_ADMINISTRATOR,
  SocketState,
  holds,
  licencePlain,
  md5Hex,
  sealWithPublicKey,
  type User,
} from '@nest/contracts';
import { getToken } from '../cookie';
import { getLang, t } from '../i18n';
import { notify } from '../notify';
import { publicKeys } from '../request/keys';
import { endSession } from '../session';
import { PushClient, PushError, type FailureHandler, type PushHandler } from './client';

export { PushClient, PushError, SESSION_ENDED_REASON, backoffDelay, pushFailureText } from './client';
export type { PushHandler, FailureHandler, PushMessage } from './client';

declare global {
  interface Window {
    /** Per-deployment override of the push endpoint (full ws:// or wss:// URL). */
    __NEST_PUSH_URL__?: string;
  }
}

export function pushUrl(): string {
  const override = globalThis.window?.__NEST_PUSH_URL__;
  if (override) return override;
  const { protocol, host } = globalThis.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${PUSH_PATH}`;
}

/** SPEC: the push connection exists for super_administrator and for holders of device_10. */
export const pushAllowed = (user: Pick<User, 'fun_list'> | null): boolean =>
  !!user && (user.fun_list.includes(SUPER_ADMINISTRATOR) || holds(user.fun_list, DEVICE_PUSH_FUNCTION));

async function licence(token: string): Promise<string> {
  return sealWithPublicKey(md5Hex(licencePlain(token, APP_IDS, APP_CODE)), (await publicKeys()).licence);
}

// ------------------------------------------------------------------ the singleton

let client: PushClient | null = null;
let state: SocketState = SocketState.CLOSED;
const stateListeners = new Set<() => void>();
/** Handlers registered by screens; attached to every (re)created connection until login clears them. */
const handlers = new Map<number, Set<PushHandler>>();
const failureHandlers = new Set<FailureHandler>();
/**
 * The token whose user verification was refused for want of the push function (40100): no connection is
 * made again for it (every navigation would otherwise try, and show the refusal, once more).
 */
let refusedToken: string | null = null;

function setState(next: SocketState) {
  state = next;
  stateListeners.forEach((l) => l());
}

export const getPush = (): PushClient | null => (client?.alive ? client : null);
export const getPushState = (): SocketState => state;

/** Creates the connection if absent (or no longer alive) and the user may have one. */
export function ensurePush(user: User | null): PushClient | null {
  if (!pushAllowed(user)) return null;
  if (client?.alive) return client;
  if (refusedToken !== null && refusedToken === getToken()) return null;
  const next = new PushClient({
    url: pushUrl(),
    token: getToken,
    lang: getLang,
    licence,
    onState: (s) => {
      if (client === next) setState(s);
    },
    showError: (text) => notify().error(text),
    onSessionEnded: (serverMsg) => {
      if (client === next) sessionEnded(serverMsg);
    },
    onRefused: () => {
      if (client !== next) return;
      refusedToken = getToken();
      closePush(false);
    },
  });
  for (const [msgId, set] of handlers) for (const h of set) next.on(msgId, h);
  for (const h of failureHandlers) next.onFailure(h);
  client = next;
  try {
    next.connect();
  } catch (err) {
    client = null;
    setState(SocketState.CLOSED);
    if (err instanceof PushError) notify().error(err.message);
    return null;
  }
  return next;
}

/**
 * The server ended the session (signed out elsewhere, user deleted or disabled, password changed, validity
 * over, push function taken away): the user is told why, in the server's words when it gave them, and
 * taken to sign-in, which clears the token and the push handlers.
 */
function sessionEnded(serverMsg: string): void {
  closePush(false);
  notify().alert('warning', {
    title: t('common.notice'),
    content: serverMsg || t('push.sessionEnded'),
    okText: t('common.ok'),
  });
  endSession();
}

/** Closes the connection; `clearHandlers` also forgets what screens registered (entering login). */
export function closePush(clearHandlers = false): void {
  const c = client;
  client = null;
  c?.close();
  setState(SocketState.CLOSED);
  if (clearHandlers) {
    handlers.clear();
    failureHandlers.clear();
    // Entering sign-in: the next token is a new session, which may hold the push function.
    refusedToken = null;
  }
}

/** Closes and creates the connection again (tab became visible). */
export function recreatePush(user: User | null): PushClient | null {
  closePush(false);
  return ensurePush(user);
}

/** Registers a handler for one msg_id on the current and every later connection. */
export function onPush(msgId: number, handler: PushHandler): () => void {
  let set = handlers.get(msgId);
  if (!set) handlers.set(msgId, (set = new Set()));
  set.add(handler);
  const off = client?.on(msgId, handler);
  return () => {
    set.delete(handler);
    off?.();
  };
}

export function onPushFailure(handler: FailureHandler): () => void {
  failureHandlers.add(handler);
  const off = client?.onFailure(handler);
  return () => {
    failureHandlers.delete(handler);
    off?.();
  };
}

export function usePushState(): SocketState {
  return useSyncExternalStore(
    (cb) => {
      stateListeners.add(cb);
      return () => stateListeners.delete(cb);
    },
    getPushState,
    getPushState,
  );
}
