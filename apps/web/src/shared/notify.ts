import { useSyncExternalStore, type ReactNode } from 'react';

/**
 * One place through which non-React code (request layer, push client, session) talks to the user.
 * The implementations are antd's context-bound message and modal APIs, registered by two small hosts that
 * load lazily (the login page never needs the modal code). Calls made before a host is there wait for it.
 */
export interface AlertOptions {
  title: ReactNode;
  content?: ReactNode;
  okText?: ReactNode;
  cancelText?: ReactNode;
  onOk?: () => unknown;
  onCancel?: () => unknown;
}

export interface MessageNotifier {
  error(text: string): void;
  warning(text: string): void;
  success(text: string): void;
  info(text: string): void;
}

export interface ModalNotifier {
  /** A box with one OK button. */
  alert(kind: 'warning' | 'success' | 'info' | 'error', options: AlertOptions): void;
  /** A box with OK and Cancel. */
  confirm(options: AlertOptions): void;
}

export type Notifier = MessageNotifier & ModalNotifier;

let messages: MessageNotifier | null = null;
let modals: ModalNotifier | null = null;
const waitingMessages: ((m: MessageNotifier) => void)[] = [];
const waitingModals: ((m: ModalNotifier) => void)[] = [];

// Whether the modal host should be mounted (after sign-in, or as soon as a box is asked for).
let modalWanted = false;
const wantListeners = new Set<() => void>();

export function wantModals(): void {
  if (modalWanted) return;
  modalWanted = true;
  wantListeners.forEach((l) => l());
}

export function useModalsWanted(): boolean {
  return useSyncExternalStore(
    (cb) => {
      wantListeners.add(cb);
      return () => wantListeners.delete(cb);
    },
    () => modalWanted,
    () => modalWanted,
  );
}

export function registerMessages(next: MessageNotifier | null): void {
  messages = next;
  if (next) waitingMessages.splice(0).forEach((run) => run(next));
}

export function registerModals(next: ModalNotifier | null): void {
  modals = next;
  if (next) waitingModals.splice(0).forEach((run) => run(next));
}

const viaMessages = (run: (m: MessageNotifier) => void) => {
  if (messages) run(messages);
  else waitingMessages.push(run);
};
const viaModals = (run: (m: ModalNotifier) => void) => {
  if (modals) run(modals);
  else {
    waitingModals.push(run);
    wantModals();
  }
};

const proxy: Notifier = {
  error: (text) => viaMessages((m) => m.error(text)),
  warning: (text) => viaMessages((m) => m.warning(text)),
  success: (text) => viaMessages((m) => m.success(text)),
  info: (text) => viaMessages((m) => m.info(text)),
  alert: (kind, opts) => viaModals((m) => m.alert(kind, opts)),
  confirm: (opts) => viaModals((m) => m.confirm(opts)),
};

let override: Notifier | null = null;

export const notify = (): Notifier => override ?? proxy;

/** Replaces the whole notifier (tests). `null` goes back to the hosts. */
export function setNotifier(next: Notifier | null): void {
  override = next;
}
