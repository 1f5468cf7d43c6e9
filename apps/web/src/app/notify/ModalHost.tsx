import { useEffect, type ReactNode } from 'react';
import Modal from 'antd/es/modal';
import { registerModals, type AlertOptions } from '../../shared/notify';

const box = (opts: AlertOptions) => ({ ...opts, keyboard: false, mask: { closable: false }, centered: true });

/** Registers antd's context-bound modal API (confirmation boxes) for non-React code. */
export default function ModalHost(): ReactNode {
  const [api, holder] = Modal.useModal();
  useEffect(() => {
    registerModals({
      alert: (kind, opts) => void api[kind](box(opts)),
      confirm: (opts) => void api.confirm(box(opts)),
    });
    return () => registerModals(null);
  }, [api]);
  return holder;
}
