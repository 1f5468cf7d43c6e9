import type { ReactNode } from 'react';
import { Form, Input } from 'antd';
import { RecordState, type Firmware } from '@nest/contracts';
import { SaveDialog, useFormSave } from '../../shared/dialogs';
import { useI18n } from '../../shared/i18n';
import { call } from '../../shared/request';
import { ROM_LIMITS } from './UploadDialog';

interface Values {
  version_name: string;
  description: string;
  description_en: string;
}

/** Edit a package's texts (type, version code and file stay what was uploaded). */
export function EditDialog({ rom, onClose, onSaved }: { rom: Firmware; onClose: () => void; onSaved: () => void }): ReactNode {
  const { t } = useI18n();
  const [form] = Form.useForm<Values>();
  const { saving, submit } = useFormSave(
    form,
    (v: Values) =>
      call('romEdit', {
        id: rom.id,
        version_name: v.version_name.trim(),
        description: v.description.trim(),
        description_en: v.description_en.trim(),
        state: RecordState.NORMAL,
      }),
    onSaved,
  );
  const required = (field: string) => ({ required: true, whitespace: true, message: t('admin.required', { field }) });

  return (
    <SaveDialog title={t('firmware.form.editTitle', { name: rom.version_name })} width={620} saving={saving} onSave={submit} onClose={onClose} saveTestId="firmware-save">
      <Form form={form} layout="vertical" initialValues={{ version_name: rom.version_name, description: rom.description, description_en: rom.description_en }}>
        <Form.Item name="version_name" label={t('firmware.form.versionName')} rules={[required(t('firmware.form.versionName'))]}>
          <Input maxLength={ROM_LIMITS.versionName} />
        </Form.Item>
        <Form.Item name="description" label={t('firmware.form.description')} rules={[required(t('firmware.form.description'))]}>
          <Input.TextArea rows={4} maxLength={ROM_LIMITS.description} showCount />
        </Form.Item>
        <Form.Item name="description_en" label={t('firmware.form.descriptionEn')} rules={[required(t('firmware.form.descriptionEn'))]}>
          <Input.TextArea rows={4} maxLength={ROM_LIMITS.description} showCount />
        </Form.Item>
      </Form>
    </SaveDialog>
  );
}
