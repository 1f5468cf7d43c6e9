import type { ReactNode } from 'react';
import { Alert, Form, Input, InputNumber, Select } from 'antd';
import { FIRMWARE_FILE_EXT, FIRMWARE_FILE_FIELD, FIRMWARE_MAX_BYTES, FirmwareType, NEST_FIRMWARE_TYPE } from '@nest/contracts';
import type { WkimgHeader } from '@nest/formats';
import { FilePicker, UploadModal } from '../../shared/admin';
import { useUploadDialog } from '../../shared/dialogs';
import { useI18n } from '../../shared/i18n';
import { call } from '../../shared/request';
import { checkFirmwareFile, megabytes, type FirmwareFileProblem } from './fileCheck';

/** The registry's limits of /rom/add (contracts calls.ts romAdd), mirrored by the forms. */
export const ROM_LIMITS = { versionName: 32, description: 2000, versionCode: 2_147_483_647 } as const;

interface Values {
  type: number;
  version_code: number;
  version_name: string;
  description: string;
  description_en: string;
}

type Chosen = { file: File; header: WkimgHeader | null; problem: FirmwareFileProblem | null };

/**
 * Upload a firmware package: the chosen file is checked in the browser first (name, size, first bytes,
 * header, length) and fills in type and version; the form must agree with the header (the server checks
 * again, with the payload digest). A progress bar follows the upload; cancel aborts it.
 */
export function UploadDialog({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }): ReactNode {
  const { t, lang } = useI18n();
  const [form] = Form.useForm<Values>();
  const { chosen, setChosen, sending, modal } = useUploadDialog<Values, Chosen>(
    form,
    (v, { file }, opts) =>
      call(
        'romAdd',
        {
          type: v.type,
          version_code: v.version_code,
          version_name: v.version_name.trim(),
          description: v.description.trim(),
          description_en: v.description_en.trim(),
        },
        { files: { [FIRMWARE_FILE_FIELD]: file }, ...opts },
      ),
    {
      texts: { uploading: (percent) => t('firmware.form.uploading', { percent }), processing: t('firmware.form.checking'), uploaded: t('firmware.uploaded') },
      onSaved,
      onClose,
    },
  );
  const max = megabytes(FIRMWARE_MAX_BYTES);

  const choose = async (file: File) => {
    const r = await checkFirmwareFile(file);
    if (r.ok) {
      setChosen({ file, header: r.header, problem: null });
      form.setFieldsValue({ type: r.header.type, version_code: r.header.version_code, version_name: r.header.version_name });
    } else {
      setChosen({ file, header: null, problem: r.problem });
    }
    void form.validateFields(['type', 'version_code']).catch(() => undefined);
  };

  const agrees = (field: 'type' | 'version_code', label: string) => ({
    validator: (_: unknown, value: number | undefined) =>
      chosen?.header && value !== undefined && value !== chosen.header[field]
        ? Promise.reject(new Error(t('firmware.form.mismatch', { field: label })))
        : Promise.resolve(),
  });
  const required = (field: string) => ({ required: true, whitespace: true, message: t('admin.required', { field }) });

  return (
    <UploadModal
      title={t('firmware.form.uploadTitle')}
      width={620}
      {...modal}
      sendLabel={t('firmware.upload')}
      testId="firmware"
    >
      <Form form={form} layout="vertical" initialValues={{ type: NEST_FIRMWARE_TYPE, description: '', description_en: '' }} disabled={sending} data-testid="firmware-form">
        <Form.Item label={t('firmware.form.file')} required extra={t('firmware.form.fileHint', { max })}>
          <FilePicker
            accept={FIRMWARE_FILE_EXT}
            chooseLabel={t('firmware.form.choose')}
            file={chosen?.file ?? null}
            problem={chosen?.problem ? t(`firmware.check.${chosen.problem}`, { max }) : null}
            onChoose={(file) => void choose(file)}
            testId="firmware"
          />
          {chosen?.header && (
            <Alert
              type="success"
              showIcon
              style={{ marginTop: 8 }}
              title={t('firmware.form.fromFile', { type: chosen.header.type, code: chosen.header.version_code, name: chosen.header.version_name })}
            />
          )}
        </Form.Item>
        <div className="firmware-form-row">
          <Form.Item name="type" label={t('firmware.form.type')} rules={[{ required: true }, agrees('type', t('firmware.form.type'))]}>
            <Select options={FirmwareType.options(lang)} />
          </Form.Item>
          <Form.Item
            name="version_code"
            label={t('firmware.form.versionCode')}
            rules={[{ required: true, message: t('admin.required', { field: t('firmware.form.versionCode') }) }, agrees('version_code', t('firmware.form.versionCode'))]}
          >
            <InputNumber min={0} max={ROM_LIMITS.versionCode} precision={0} style={{ width: '100%' }} data-testid="firmware-version-code" />
          </Form.Item>
          <Form.Item name="version_name" label={t('firmware.form.versionName')} rules={[required(t('firmware.form.versionName'))]}>
            <Input maxLength={ROM_LIMITS.versionName} data-testid="firmware-version-name" />
          </Form.Item>
        </div>
        <Form.Item name="description" label={t('firmware.form.description')} rules={[required(t('firmware.form.description'))]}>
          <Input.TextArea rows={3} maxLength={ROM_LIMITS.description} showCount data-testid="firmware-description" />
        </Form.Item>
        <Form.Item name="description_en" label={t('firmware.form.descriptionEn')} rules={[required(t('firmware.form.descriptionEn'))]}>
          <Input.TextArea rows={3} maxLength={ROM_LIMITS.description} showCount data-testid="firmware-description-en" />
        </Form.Item>
      </Form>
    </UploadModal>
  );
}
