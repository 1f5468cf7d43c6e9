import { useState, type ReactNode } from 'react';
import { Form } from 'antd';
import Password from 'antd/es/input/Password';
import type { Rule } from 'antd/es/form';
import { PASSWORD_MAX, PASSWORD_MIN, ResultCode, type User } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { FormDialog } from '../../shared/dialogs/FormDialog';
import { notify } from '../../shared/notify';
import { RequestError, call, requestStamp, sealWithPasswordKey } from '../../shared/request';
import { endSession } from '../../shared/session';

interface Values {
  old: string;
  next: string;
  confirm: string;
}

export function PasswordDialog({ user, onClose }: { user: User; onClose: () => void }): ReactNode {
  const { t } = useI18n();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const length: Rule = { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('password.length', { min: PASSWORD_MIN, max: PASSWORD_MAX }) };

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      // Both envelopes are bound to this one request's timestamp.
      const stamp = requestStamp();
      const [password, newPsw] = await Promise.all([sealWithPasswordKey(values.old, stamp), sealWithPasswordKey(values.next, stamp)]);
      await call('userPsw', { account: user.phone, password, new_psw: newPsw }, { timestamp: stamp });
      onClose();
      notify().alert('success', {
        title: t('password.successTitle'),
        content: t('password.successContent'),
        okText: t('common.ok'),
        onOk: () => endSession(),
      });
    } catch (err) {
      // Call failures were shown by the request layer; sealing failures (keys unavailable) are shown here.
      if (!(err instanceof RequestError)) notify().error(t('request.network'));
      // A new password the server refuses as too common: said on the field too.
      else if (err.code === ResultCode.PASSWORD_COMMON) form.setFields([{ name: 'next', errors: [err.text] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <FormDialog<Values>
      title={t('password.title')}
      testId="password-dialog"
      submitTestId="psw-submit"
      submitText={t('password.submit')}
      saving={saving}
      form={form}
      onFinish={(values) => void submit(values)}
      onClose={onClose}
    >
        <Form.Item name="old" label={t('password.old')} rules={[{ required: true, message: t('password.oldRequired') }, length]}>
          <Password data-testid="psw-old" placeholder={t('password.oldPlaceholder')} autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="next" label={t('password.new')} rules={[{ required: true, message: t('password.newRequired') }, length]}>
          <Password data-testid="psw-new" placeholder={t('password.newPlaceholder')} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('password.confirm')}
          dependencies={['next']}
          rules={[
            { required: true, message: t('password.confirmRequired') },
            length,
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || value === getFieldValue('next') ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch'))),
            }),
          ]}
        >
          <Password data-testid="psw-confirm" placeholder={t('password.confirmPlaceholder')} autoComplete="new-password" />
        </Form.Item>
    </FormDialog>
  );
}
