import { useState, type ReactNode } from 'react';
import { Form, Input, InputNumber, TreeSelect } from 'antd';
import type { DepartmentNode } from '@nest/contracts';
import { FormDialog } from '../../shared/dialogs/FormDialog';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { departmentOptions } from '../../shared/admin/tree';

export type TeamDialogMode = { kind: 'add'; parent: DepartmentNode | null } | { kind: 'edit'; node: DepartmentNode } | { kind: 'move'; node: DepartmentNode };

interface Values {
  name: string;
  parent_id?: string;
  description?: string;
  notes?: string;
  sort?: number | null;
}

const TOP = '';

/** The /team/edit fields of a department with the dialog's values over it. */
export function teamEditFields(node: DepartmentNode, v: Partial<Values> = {}) {
  return {
    id: node.id,
    parent_id: v.parent_id ?? node.parent_id,
    name: (v.name ?? node.name).trim(),
    description: (v.description ?? node.description).trim(),
    notes: (v.notes ?? node.notes).trim(),
    sort: v.sort ?? node.sort,
  };
}

/**
 * Add a department (under a parent or at the top of `companyId`), edit one, or move one: the parent choices
 * leave out the department itself and everything below it, so only moves the server accepts are offered.
 */
export function TeamDialog({
  mode,
  tree,
  companyId,
  onClose,
  onSaved,
}: {
  mode: TeamDialogMode;
  tree: readonly DepartmentNode[];
  companyId: string;
  onClose: () => void;
  onSaved: () => void;
}): ReactNode {
  const { t } = useI18n();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const node = mode.kind === 'add' ? null : mode.node;
  const parentOptions = [{ value: TOP, title: t('teamManage.topLevel'), children: [] }, ...departmentOptions(tree, node?.id)];

  const title =
    mode.kind === 'add'
      ? mode.parent
        ? t('teamManage.addChildTitle', { name: mode.parent.name })
        : t('teamManage.addTitle')
      : mode.kind === 'edit'
        ? t('teamManage.editTitle')
        : t('teamManage.moveTitle', { name: mode.node.name });

  const submit = async (v: Values) => {
    setSaving(true);
    try {
      if (mode.kind === 'add') {
        await call('teamAdd', {
          name: v.name.trim(),
          parent_id: v.parent_id ?? '',
          description: (v.description ?? '').trim(),
          notes: (v.notes ?? '').trim(),
          sort: v.sort ?? 0,
          ...(v.parent_id ? {} : { in_com_id: companyId }),
        });
      } else {
        await call('teamEdit', teamEditFields(mode.node, v));
      }
      notify().success(mode.kind === 'move' ? t('teamManage.moved') : t('admin.saved'));
      onSaved();
    } catch {
      // The request layer has shown the server's reason (a cycle, a name clash...).
    } finally {
      setSaving(false);
    }
  };

  const initial: Values =
    mode.kind === 'add'
      ? { name: '', parent_id: mode.parent?.id ?? TOP, description: '', notes: '', sort: 0 }
      : { name: mode.node.name, parent_id: mode.node.parent_id, description: mode.node.description, notes: mode.node.notes, sort: mode.node.sort };

  return (
    <FormDialog<Values>
      title={title}
      testId="team-dialog"
      submitTestId="team-submit"
      submitText={t('common.save')}
      saving={saving}
      form={form}
      initialValues={initial}
      onFinish={(v) => void submit(v)}
      onClose={onClose}
    >
      {mode.kind === 'move' ? (
        <Form.Item label={t('teamManage.field.name')}>
          <span className="dialog-readonly">{mode.node.name}</span>
        </Form.Item>
      ) : (
        <Form.Item name="name" label={t('teamManage.field.name')} rules={[{ required: true, whitespace: true, message: t('teamManage.rule.nameRequired') }]}>
          <Input maxLength={64} data-testid="team-name" />
        </Form.Item>
      )}
      <Form.Item name="parent_id" label={t('teamManage.field.parent')} extra={mode.kind === 'add' ? undefined : t('teamManage.parentHint')}>
        <TreeSelect
          treeData={parentOptions}
          treeDefaultExpandAll
          showSearch
          treeNodeFilterProp="title"
          data-testid="team-parent"
        />
      </Form.Item>
      {mode.kind !== 'move' && (
        <>
          <Form.Item name="description" label={t('teamManage.field.description')}>
            <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} data-testid="team-description" />
          </Form.Item>
          <Form.Item name="notes" label={t('teamManage.field.notes')}>
            <Input.TextArea maxLength={500} autoSize={{ minRows: 1, maxRows: 4 }} data-testid="team-notes" />
          </Form.Item>
          <Form.Item name="sort" label={t('teamManage.field.sort')}>
            <InputNumber min={0} max={1_000_000} precision={0} style={{ width: 140 }} data-testid="team-sort" />
          </Form.Item>
        </>
      )}
    </FormDialog>
  );
}
