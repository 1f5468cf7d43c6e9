import { useState, type ReactNode } from 'react';
import { Form } from 'antd';
import Input from 'antd/es/input/Input';
import { ACCOUNT_EDIT_STATE, NO_VALUE, isAccount, isEmail, userSchema, type User } from '@nest/contracts';
import { formatAccountEnd, formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { FormDialog } from '../../shared/dialogs/FormDialog';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { setUser } from '../../shared/session';

interface Values {
  nick: string;
  account: string;
}

/** The userEdit fields for an own-account edit (SPEC section 7; registry field list). */
export function accountEditFields(user: User, values: Values) {
  const account = values.account.trim();
  return {
    u_id: user.u_id,
    state: ACCOUNT_EDIT_STATE,
    start_time: user.start_time,
    end_time: user.end_time,
    nick: values.nick.trim(),
    phone: account,
    // An e-mail account is sent as both phone and email; a phone keeps the e-mail on file.
    email: isEmail(account) ? account : user.email,
    password: '',
    team: user.team,
    notes: user.notes,
    in_com_id: user.in_com.id,
    fun_json: JSON.stringify(user.fun_list),
  };
}

export function AccountEditDialog({ user, onClose }: { user: User; onClose: () => void }): ReactNode {
  const { t } = useI18n();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      const fields = accountEditFields(user, values);
      const data = await call('userEdit', fields);
      const parsed = userSchema.safeParse(data);
      const next: User = parsed.success
        ? { ...parsed.data, token: user.token }
        : { ...user, nick: fields.nick, phone: fields.phone, email: fields.email };
      setUser(next);
      notify().success(t('account.saved'));
      onClose();
    } catch {
      // The request layer has told the user why.
    } finally {
      setSaving(false);
    }
  };

  return (
    <FormDialog<Values>
      title={t('account.title')}
      testId="account-edit-dialog"
      submitTestId="account-edit-submit"
      submitText={t('common.save')}
      saving={saving}
      form={form}
      initialValues={{ nick: user.nick, account: user.phone }}
      onFinish={(values) => void submit(values)}
      onClose={onClose}
    >
        <Form.Item name="nick" label={t('account.nick')} rules={[{ required: true, whitespace: true, message: t('account.nickRequired') }]}>
          <Input data-testid="account-edit-nick" maxLength={64} placeholder={t('account.nickPlaceholder')} autoComplete="nickname" />
        </Form.Item>
        <Form.Item
          name="account"
          label={t('account.account')}
          rules={[
            { required: true, whitespace: true, message: t('account.accountRequired') },
            {
              validator: (_rule, value: string | undefined) =>
                !value?.trim() || isAccount(value.trim()) ? Promise.resolve() : Promise.reject(new Error(t('account.accountFormat'))),
            },
          ]}
        >
          <Input data-testid="account-edit-phone" maxLength={128} placeholder={t('account.accountPlaceholder')} autoComplete="username" />
        </Form.Item>
        <Form.Item label={t('account.company')}>
          <span className="dialog-readonly">{user.in_com.name || NO_VALUE}</span>
        </Form.Item>
        <Form.Item label={t('account.startTime')}>
          <span className="dialog-readonly">{formatSeconds(user.start_time)}</span>
        </Form.Item>
        <Form.Item label={t('account.endTime')}>
          <span className="dialog-readonly">{formatAccountEnd(user.end_time)}</span>
        </Form.Item>
    </FormDialog>
  );
}
