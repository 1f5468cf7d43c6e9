import { useCallback, useState, type ReactElement, type ReactNode } from 'react';
import { Modal } from 'antd';
import { t } from '../i18n';
import { notify } from '../notify';
import { confirmChange } from './parts';

type ModalApi = ReturnType<typeof Modal.useModal>[0];

/** A change to one row of an administration table, made after the user confirms it. */
export interface RowChange {
  title: ReactNode;
  content?: ReactNode;
  /** A change that loses nothing (enable, restore): the OK button is not red. */
  safe?: boolean;
  /** Sends the change. */
  send: () => Promise<unknown>;
  /** What the success message says. */
  done: string;
  /** The row shown busy (its switch spinning) until the change and the reload are over. */
  busyKey?: string;
}

export interface RowChanges {
  /** The confirmation boxes' host: render it once in the screen. */
  holder: ReactElement;
  /** The modal API behind the boxes, for a screen's other boxes (a warning instead of a confirmation). */
  modal: ModalApi;
  /** The row being changed (RowChange.busyKey), or null. */
  busy: string | null;
  /** Confirm, send, say it is done, then read the table again. */
  ask: (change: RowChange) => void;
  /** `ask` for the deletion of the row called `name`, in the words every screen uses. */
  askDelete: (name: string, send: () => Promise<unknown>) => void;
}

/**
 * The row actions of an administration screen: a confirmation box, the call, the success message, then
 * `reload`. A failed call was already shown by the request layer; the box closes and the table is read again
 * anyway, so that it shows what the server now holds (a row deleted elsewhere, say).
 */
export function useRowChange(reload: () => unknown): RowChanges {
  const [modal, holder] = Modal.useModal();
  const [busy, setBusy] = useState<string | null>(null);
  const ask = useCallback(
    ({ send, done, busyKey, ...box }: RowChange) =>
      confirmChange(modal.confirm, {
        ...box,
        onOk: async () => {
          setBusy(busyKey ?? null);
          try {
            await send();
            notify().success(done);
          } catch {
            // Shown by the request layer.
          }
          try {
            await reload();
          } finally {
            setBusy(null);
          }
        },
      }),
    [modal, reload],
  );
  const askDelete = useCallback(
    (name: string, send: () => Promise<unknown>) => ask({ title: t('admin.delete'), content: t('admin.confirmDelete', { name }), send, done: t('admin.deleted') }),
    [ask],
  );
  return { holder, modal, busy, ask, askDelete };
}
