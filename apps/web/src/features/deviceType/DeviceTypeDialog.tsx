import { useState, type ReactNode } from 'react';
import { Form, Input, Modal, Select, Switch } from 'antd';
import { DEVICE_TYPE_VALUE_PATTERN, DeviceKind, VideoStream, type DeviceType } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';

/** The registry's rules for a device type (contracts calls.ts deviceTypeFields), mirrored by the form. */
export const DEVICE_TYPE_LIMITS = { claName: 64, value: 64, notes: 500 } as const;

interface Values {
  cla_type: number;
  cla_name: string;
  value: string;
  stream: number;
  enabled: boolean;
  notes: string;
}

/** The call fields of the form (state 10 / 20 from the switch). */
export function deviceTypeFields(v: Values) {
  return {
    cla_type: v.cla_type,
    cla_name: v.cla_name.trim(),
    value: v.value.trim(),
    stream: v.stream,
    state: v.enabled ? 10 : 20,
    notes: v.notes.trim(),
  };
}

/** Add (`type` null) or edit a device type. The server's refusal (a taken key) keeps the dialog open. */
export function DeviceTypeDialog({ type, onClose, onSaved }: { type: DeviceType | null; onClose: () => void; onSaved: () => void }): ReactNode {
  const { t, lang } = useI18n();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const initial: Values = type
    ? { cla_type: type.cla_type, cla_name: type.cla_name, value: type.value, stream: type.stream, enabled: type.state === 10, notes: type.notes }
    : { cla_type: 10, cla_name: '', value: '', stream: 1, enabled: true, notes: '' };

  const save = async () => {
    // An invalid form shows its messages beside the fields; nothing to send.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      const fields = deviceTypeFields(v);
      if (type) await call('deviceTypeEdit', { id: type.id, ...fields });
      else await call('deviceTypeAdd', fields);
      notify().success(t('admin.saved'));
      onSaved();
    } catch {
      // The request layer showed why.
    } finally {
      setSaving(false);
    }
  };

  const required = (field: string) => ({ required: true, whitespace: true, message: t('admin.required', { field }) });
  return (
    <Modal
      open
      title={type ? t('deviceType.form.editTitle', { name: type.cla_name }) : t('deviceType.form.addTitle')}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'device-type-save' }}
    >
      <Form form={form} layout="vertical" initialValues={initial} data-testid="device-type-form">
        <Form.Item name="cla_type" label={t('deviceType.form.claType')} rules={[{ required: true }]}>
          <Select options={DeviceKind.options(lang)} />
        </Form.Item>
        <Form.Item name="cla_name" label={t('deviceType.form.claName')} rules={[required(t('deviceType.form.claName')), { max: DEVICE_TYPE_LIMITS.claName }]}>
          <Input maxLength={DEVICE_TYPE_LIMITS.claName} data-testid="device-type-name" />
        </Form.Item>
        <Form.Item
          name="value"
          label={t('deviceType.form.value')}
          extra={t('deviceType.form.valueHint')}
          rules={[required(t('deviceType.form.value')), { pattern: DEVICE_TYPE_VALUE_PATTERN, message: t('deviceType.form.valuePattern') }]}
        >
          <Input maxLength={DEVICE_TYPE_LIMITS.value} data-testid="device-type-value" />
        </Form.Item>
        <Form.Item name="stream" label={t('deviceType.form.stream')} rules={[{ required: true }]}>
          <Select options={VideoStream.options(lang)} />
        </Form.Item>
        <Form.Item name="enabled" label={t('deviceType.form.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="notes" label={t('deviceType.form.notes')} rules={[{ max: DEVICE_TYPE_LIMITS.notes }]}>
          <Input.TextArea rows={3} maxLength={DEVICE_TYPE_LIMITS.notes} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
