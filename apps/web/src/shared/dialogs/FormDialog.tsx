import type { ReactNode } from 'react';
import { Button, Form, Modal, type FormInstance } from 'antd';
import { DIALOG_LABEL_WIDTH } from '@nest/contracts';
import { useI18n } from '../i18n';

interface Props<V> {
  title: string;
  /** data-testid of the dialog and of its submit button. */
  testId: string;
  submitTestId: string;
  submitText: string;
  saving: boolean;
  form: FormInstance<V>;
  initialValues?: Partial<V>;
  /** 520 px unless the form needs more room. */
  width?: number;
  onFinish: (values: V) => void;
  /** A submit with fields in error (e.g. to show the tab that holds them). */
  onFinishFailed?: () => void;
  onClose: () => void;
  children: ReactNode;
}

/** The frame the editing dialogs of the shell and the admin screens share: title, cancel/submit footer, a form with the SPEC's label width. */
export function FormDialog<V>({ title, testId, submitTestId, submitText, saving, form, initialValues, width = 520, onFinish, onFinishFailed, onClose, children }: Props<V>): ReactNode {
  const { t } = useI18n();
  return (
    <Modal
      open
      title={title}
      width={width}
      centered
      onCancel={onClose}
      destroyOnHidden
      modalRender={(node) => <div data-testid={testId}>{node}</div>}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={saving} data-testid={submitTestId} onClick={() => form.submit()}>
          {submitText}
        </Button>,
      ]}
    >
      <Form<V>
        form={form}
        className="dialog-form"
        labelCol={{ flex: DIALOG_LABEL_WIDTH }}
        wrapperCol={{ flex: 1 }}
        labelAlign="right"
        initialValues={initialValues}
        onFinish={onFinish}
        onFinishFailed={onFinishFailed}
      >
        {children}
      </Form>
    </Modal>
  );
}
