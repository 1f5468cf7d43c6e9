import { useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, Modal, Progress, Select, Upload } from 'antd';
import { FileOutlined, UploadOutlined } from '@ant-design/icons';
import { DeviceKind, TEACHING_VIDEO_EXTS, TEACHING_VIDEO_FILE_FIELD, TEACHING_VIDEO_MAX_BYTES, formatSizeKb, RecordState, type TeachingVideo } from '@nest/contracts';
import { megabytes, useSave, useUpload } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { checkVideoFile, type VideoFileProblem } from './fileCheck';

/** The registry's limits of /teach/add and /teach/edit (contracts calls.ts), mirrored by the forms. */
export const TEACH_LIMITS = { title: 64, describe: 2000, notes: 500 } as const;

interface Values {
  title: string;
  describe: string;
  notes: string;
  cla_type: number;
}

const fieldsOf = (v: Values) => ({ title: v.title.trim(), describe: v.describe.trim(), notes: v.notes.trim(), cla_type: v.cla_type });

function TextFields(): ReactNode {
  const { t, lang } = useI18n();
  return (
    <>
      <Form.Item name="title" label={t('teaching.form.title')} rules={[{ required: true, whitespace: true, message: t('admin.required', { field: t('teaching.form.title') }) }]}>
        <Input maxLength={TEACH_LIMITS.title} data-testid="teach-title" />
      </Form.Item>
      <Form.Item name="cla_type" label={t('teaching.form.claType')}>
        <Select options={[{ value: 0, label: t('teaching.everyKind') }, ...DeviceKind.options(lang)]} data-testid="teach-kind" />
      </Form.Item>
      <Form.Item name="describe" label={t('teaching.form.describe')}>
        <Input.TextArea rows={3} maxLength={TEACH_LIMITS.describe} showCount />
      </Form.Item>
      <Form.Item name="notes" label={t('teaching.form.notes')}>
        <Input.TextArea rows={2} maxLength={TEACH_LIMITS.notes} showCount />
      </Form.Item>
    </>
  );
}

type Chosen = { file: File; problem: VideoFileProblem | null };

/** Upload a teaching video: checked in the browser first (name, size, first bytes), then sent with a progress bar. */
export function UploadVideoDialog({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }): ReactNode {
  const { t } = useI18n();
  const [form] = Form.useForm<Values>();
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const { percent, sending, run, cancel: abortUpload } = useUpload();
  const max = megabytes(TEACHING_VIDEO_MAX_BYTES);

  const choose = async (file: File) => {
    const r = await checkVideoFile(file);
    setChosen({ file, problem: r.ok ? null : r.problem });
    if (r.ok && !form.getFieldValue('title')) form.setFieldsValue({ title: file.name.replace(/\.[^.]+$/, '').slice(0, TEACH_LIMITS.title) });
  };

  const send = async () => {
    if (!chosen || chosen.problem) return;
    // An invalid form shows its messages beside the fields; nothing to send.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    if (await run((opts) => call('teachAdd', fieldsOf(v), { files: { [TEACHING_VIDEO_FILE_FIELD]: chosen.file }, ...opts }))) {
      notify().success(t('teaching.uploaded'));
      onSaved();
    }
  };
  const cancel = () => {
    abortUpload();
    onClose();
  };

  return (
    <Modal
      open
      title={t('teaching.form.uploadTitle')}
      onCancel={cancel}
      mask={{ closable: !sending }}
      destroyOnHidden
      width={600}
      footer={[
        <Button key="cancel" onClick={cancel}>
          {t('common.cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={sending} disabled={!chosen || chosen.problem !== null} onClick={() => void send()} data-testid="teach-send">
          {t('teaching.upload')}
        </Button>,
      ]}
    >
      <Form form={form} layout="vertical" initialValues={{ title: '', describe: '', notes: '', cla_type: 0 }} disabled={sending} data-testid="teach-form">
        <Form.Item label={t('teaching.form.file')} required extra={t('teaching.form.fileHint', { max })}>
          <Upload
            accept={TEACHING_VIDEO_EXTS.join(',')}
            maxCount={1}
            showUploadList={false}
            beforeUpload={(file) => {
              void choose(file);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="teach-choose">
              {t('teaching.form.choose')}
            </Button>
          </Upload>
          {chosen && (
            <div className="teaching-chosen" data-testid="teach-chosen">
              <FileOutlined /> {chosen.file.name} · {formatSizeKb(chosen.file.size / 1024)}
            </div>
          )}
          {chosen?.problem && <Alert type="error" showIcon style={{ marginTop: 8 }} title={t(`teaching.check.${chosen.problem}`, { max })} data-testid="teach-problem" />}
        </Form.Item>
        <TextFields />
      </Form>
      {sending && (
        <div data-testid="teach-progress">
          <Progress percent={percent} status={percent < 100 ? 'active' : 'normal'} />
          <div className="teaching-progress-text">{percent < 100 ? t('teaching.form.uploading', { percent }) : t('teaching.form.processing')}</div>
        </div>
      )}
    </Modal>
  );
}

/** Edit a teaching video's texts and kind. */
export function EditVideoDialog({ video, onClose, onSaved }: { video: TeachingVideo; onClose: () => void; onSaved: () => void }): ReactNode {
  const { t } = useI18n();
  const [form] = Form.useForm<Values>();
  const { saving, save: send } = useSave();
  const save = async () => {
    // An invalid form shows its messages beside the fields; nothing to send.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    await send(() => call('teachEdit', { id: video.id, ...fieldsOf(v), state: RecordState.NORMAL }), onSaved);
  };
  return (
    <Modal
      open
      title={t('teaching.form.editTitle', { name: video.title })}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      destroyOnHidden
      width={600}
      okButtonProps={{ 'data-testid': 'teach-save' }}
    >
      <Form form={form} layout="vertical" initialValues={{ title: video.title, describe: video.describe, notes: video.notes, cla_type: video.cla_type }}>
        <TextFields />
      </Form>
    </Modal>
  );
}
