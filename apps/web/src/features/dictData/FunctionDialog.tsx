import type { ReactNode } from 'react';
import { Form, Input, Radio } from 'antd';
import { FUN_ID_PATTERN, RecordState, type FunctionItem } from '@nest/contracts';
import { FormDialog } from '../../shared/dialogs/FormDialog';
import { useSave } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { call } from '../../shared/request';

interface Values {
  name: string;
  name_en: string;
  fun_id: string;
  description: string;
  notes?: string;
  state: number;
}

/** The /fun/add or /fun/edit fields of the dialog's values (trimmed; empty notes sent as ''). */
export function functionFields(v: Values) {
  return {
    fun_id: v.fun_id.trim(),
    name: v.name.trim(),
    name_en: v.name_en.trim(),
    description: v.description.trim(),
    notes: (v.notes ?? '').trim(),
    state: v.state,
  };
}

/** Add (item null) or edit a function: name, English name, id (fixed once created), description, notes, state. */
export function FunctionDialog({ item, onClose, onSaved }: { item: FunctionItem | null; onClose: () => void; onSaved: () => void }): ReactNode {
  const { t, lang } = useI18n();
  const [form] = Form.useForm<Values>();
  const { saving, save } = useSave();
  const required = (message: string) => [{ required: true, whitespace: true, message }];

  const submit = (values: Values) => void save(() => call(item ? 'funEdit' : 'funAdd', functionFields(values)), onSaved);

  return (
    <FormDialog<Values>
      title={item ? t('dictData.editTitle') : t('dictData.addTitle')}
      testId="function-dialog"
      submitTestId="function-submit"
      submitText={t('common.save')}
      saving={saving}
      form={form}
      initialValues={item ? { ...item } : { state: RecordState.NORMAL, notes: '' }}
      onFinish={submit}
      onClose={onClose}
    >
      <Form.Item name="name" label={t('dictData.field.name')} rules={required(t('dictData.rule.nameRequired'))}>
        <Input maxLength={64} placeholder={t('dictData.placeholder.name')} data-testid="function-name" />
      </Form.Item>
      <Form.Item name="name_en" label={t('dictData.field.nameEn')} rules={required(t('dictData.rule.nameEnRequired'))}>
        <Input maxLength={64} placeholder={t('dictData.placeholder.nameEn')} data-testid="function-name-en" />
      </Form.Item>
      <Form.Item
        name="fun_id"
        label={t('dictData.field.funId')}
        extra={item ? t('dictData.funIdFixed') : undefined}
        rules={[
          ...required(t('dictData.rule.funIdRequired')),
          {
            validator: (_r, v: string | undefined) =>
              !v?.trim() || FUN_ID_PATTERN.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('dictData.rule.funIdFormat'))),
          },
        ]}
      >
        <Input maxLength={64} disabled={!!item} placeholder={t('dictData.placeholder.funId')} data-testid="function-id" />
      </Form.Item>
      <Form.Item name="description" label={t('dictData.field.description')} rules={required(t('dictData.rule.descriptionRequired'))}>
        <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 5 }} placeholder={t('dictData.placeholder.description')} data-testid="function-description" />
      </Form.Item>
      <Form.Item name="notes" label={t('dictData.field.notes')}>
        <Input.TextArea maxLength={500} autoSize={{ minRows: 1, maxRows: 4 }} data-testid="function-notes" />
      </Form.Item>
      <Form.Item name="state" label={t('dictData.field.state')}>
        <Radio.Group options={RecordState.options(lang)} disabled={item?.fun_id === 'super_administrator'} data-testid="function-state" />
      </Form.Item>
    </FormDialog>
  );
}
