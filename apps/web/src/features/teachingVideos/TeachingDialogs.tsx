import type { ReactNode } from 'react';
import { Form, Input, Select } from 'antd';
import { DeviceKind, TEACHING_VIDEO_EXTS, TEACHING_VIDEO_FILE_FIELD, TEACHING_VIDEO_MAX_BYTES, RecordState, type TeachingVideo } from '@nest/contracts';
import { FilePicker, UploadModal, megabytes } from '../../shared/admin';
import { SaveDialog, useFormSave, useUploadDialog } from '../../shared/dialogs';
import { useI18n } from '../../shared/i18n';
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
      <Form.Item name="title" label={t('teachingVideos.form.title')} rules={[{ required: true, whitespace: true, message: t('admin.required', { field: t('teachingVideos.form.title') }) }]}>
        <Input maxLength={TEACH_LIMITS.title} data-testid="teach-title" />
      </Form.Item>
      <Form.Item name="cla_type" label={t('teachingVideos.form.claType')}>
        <Select options={[{ value: 0, label: t('teachingVideos.everyKind') }, ...DeviceKind.options(lang)]} data-testid="teach-kind" />
      </Form.Item>
      <Form.Item name="describe" label={t('teachingVideos.form.describe')}>
        <Input.TextArea rows={3} maxLength={TEACH_LIMITS.describe} showCount />
      </Form.Item>
      <Form.Item name="notes" label={t('teachingVideos.form.notes')}>
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
  const { chosen, setChosen, sending, modal } = useUploadDialog<Values, Chosen>(
    form,
    (v, { file }, opts) => call('teachAdd', fieldsOf(v), { files: { [TEACHING_VIDEO_FILE_FIELD]: file }, ...opts }),
    {
      texts: { uploading: (percent) => t('teachingVideos.form.uploading', { percent }), processing: t('teachingVideos.form.processing'), uploaded: t('teachingVideos.uploaded') },
      onSaved,
      onClose,
    },
  );
  const max = megabytes(TEACHING_VIDEO_MAX_BYTES);

  const choose = async (file: File) => {
    const r = await checkVideoFile(file);
    setChosen({ file, problem: r.ok ? null : r.problem });
    if (r.ok && !form.getFieldValue('title')) form.setFieldsValue({ title: file.name.replace(/\.[^.]+$/, '').slice(0, TEACH_LIMITS.title) });
  };

  return (
    <UploadModal
      title={t('teachingVideos.form.uploadTitle')}
      width={600}
      {...modal}
      sendLabel={t('teachingVideos.upload')}
      testId="teach"
    >
      <Form form={form} layout="vertical" initialValues={{ title: '', describe: '', notes: '', cla_type: 0 }} disabled={sending} data-testid="teach-form">
        <Form.Item label={t('teachingVideos.form.file')} required extra={t('teachingVideos.form.fileHint', { max })}>
          <FilePicker
            accept={TEACHING_VIDEO_EXTS.join(',')}
            chooseLabel={t('teachingVideos.form.choose')}
            file={chosen?.file ?? null}
            problem={chosen?.problem ? t(`teachingVideos.check.${chosen.problem}`, { max }) : null}
            onChoose={(file) => void choose(file)}
            testId="teach"
          />
        </Form.Item>
        <TextFields />
      </Form>
    </UploadModal>
  );
}

/** Edit a teaching video's texts and kind. */
export function EditVideoDialog({ video, onClose, onSaved }: { video: TeachingVideo; onClose: () => void; onSaved: () => void }): ReactNode {
  const { t } = useI18n();
  const [form] = Form.useForm<Values>();
  const { saving, submit } = useFormSave(form, (v: Values) => call('teachEdit', { id: video.id, ...fieldsOf(v), state: RecordState.NORMAL }), onSaved);
  return (
    <SaveDialog title={t('teachingVideos.form.editTitle', { name: video.title })} width={600} saving={saving} onSave={submit} onClose={onClose} saveTestId="teach-save">
      <Form form={form} layout="vertical" initialValues={{ title: video.title, describe: video.describe, notes: video.notes, cla_type: video.cla_type }}>
        <TextFields />
      </Form>
    </SaveDialog>
  );
}
