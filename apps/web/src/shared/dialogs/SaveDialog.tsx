import type { ReactNode } from 'react';
import { Modal, type ModalProps } from 'antd';

/** `open` defaults to true (most dialogs are mounted only while they show); `okText` / `cancelText` where antd's OK / Cancel do not fit. */
export interface SaveDialogProps extends Pick<ModalProps, 'open' | 'title' | 'width' | 'okText' | 'cancelText'> {
  saving: boolean;
  /** The OK button: check the form and save. */
  onSave: () => void;
  onClose: () => void;
  /** data-testid of the OK button. */
  saveTestId: string;
  /** A click beside the dialog closes it (true unless the form is costly to fill in again). */
  maskClosable?: boolean;
  children: ReactNode;
}

/** The frame of an editing dialog whose OK button saves: cancel / OK footer, OK busy while saving. */
export function SaveDialog({ open = true, title, width, saving, onSave, onClose, saveTestId, okText, cancelText, maskClosable = true, children }: SaveDialogProps): ReactNode {
  return (
    <Modal
      open={open}
      title={title}
      width={width}
      onCancel={onClose}
      onOk={onSave}
      confirmLoading={saving}
      okText={okText}
      cancelText={cancelText}
      mask={{ closable: maskClosable }}
      destroyOnHidden
      okButtonProps={{ 'data-testid': saveTestId }}
    >
      {children}
    </Modal>
  );
}
