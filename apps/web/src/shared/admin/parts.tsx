import type { ReactNode } from 'react';
import { Button, Select, Space, type ButtonProps, type ModalFuncProps } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useI18n } from '../i18n';

/** The filter bar's refresh button, then the screen's own buttons, then its add button when the user may add. */
export function AdminActions({
  onRefresh,
  add,
  children,
}: {
  onRefresh: () => unknown;
  /** The add button: shown when given (the caller checks the right to add). */
  add?: { onClick: () => void; testId: string; label?: ReactNode; icon?: ReactNode } | false;
  children?: ReactNode;
}): ReactNode {
  const { t } = useI18n();
  return (
    <>
      <Button icon={<ReloadOutlined />} onClick={() => void onRefresh()}>
        {t('admin.refresh')}
      </Button>
      {children}
      {add && (
        <Button type="primary" icon={add.icon ?? <PlusOutlined />} onClick={add.onClick} data-testid={add.testId}>
          {add.label ?? t('admin.add')}
        </Button>
      )}
    </>
  );
}

/** A row's action: a small link button (edit, delete, reset, ...). */
export function RowAction({
  icon,
  onClick,
  testId,
  danger,
  disabled,
  loading,
  children,
}: {
  icon?: ReactNode;
  onClick: () => void;
  testId?: string;
  danger?: boolean;
  disabled?: boolean;
  loading?: boolean;
  children: ReactNode;
}): ReactNode {
  return (
    <Button type="link" size="small" danger={danger} disabled={disabled} loading={loading} icon={icon} onClick={onClick} data-testid={testId}>
      {children}
    </Button>
  );
}

/**
 * A row's actions: `leading` ones, edit, the screen's own (`children`), then delete; edit or delete left out
 * when not given.
 */
export function EditDeleteActions({
  onEdit,
  onDelete,
  editTestId,
  deleteTestId,
  leading,
  children,
  wrap,
}: {
  onEdit?: (() => void) | false;
  onDelete?: (() => void) | false;
  editTestId?: string;
  deleteTestId?: string;
  leading?: ReactNode;
  children?: ReactNode;
  wrap?: boolean;
}): ReactNode {
  const { t } = useI18n();
  return (
    <Space size={0} wrap={wrap}>
      {leading}
      {onEdit && (
        <RowAction icon={<EditOutlined />} onClick={onEdit} testId={editTestId}>
          {t('admin.edit')}
        </RowAction>
      )}
      {children}
      {onDelete && (
        <RowAction danger icon={<DeleteOutlined />} onClick={onDelete} testId={deleteTestId}>
          {t('admin.delete')}
        </RowAction>
      )}
    </Space>
  );
}

/** The test id every confirmation box's OK button carries. */
const CONFIRM_OK: ButtonProps = Object.assign({}, { 'data-testid': 'confirm-ok' });

/**
 * A confirmation box (Modal.useModal's `confirm`) before a change: the OK button is red unless `safe`, and
 * carries the `confirm-ok` test id; `onOk` runs the change (the box stays open, busy, until it settles).
 */
export function confirmChange(
  confirm: (props: ModalFuncProps) => unknown,
  { title, content, onOk, safe = false }: { title: ReactNode; content?: ReactNode; onOk: () => unknown; safe?: boolean },
): void {
  confirm({ title, content, okButtonProps: { ...CONFIRM_OK, danger: !safe }, onOk: async () => void (await onOk()) });
}

/**
 * A filter bar's choice among a few values, with "all" first (value 0, given to `onChange` as undefined).
 */
export function OptionFilter<V extends number>({
  value,
  onChange,
  options,
  allLabel,
  width,
  testId,
}: {
  value: V | undefined;
  onChange: (value: V | undefined) => void;
  options: readonly { value: V; label: ReactNode }[];
  allLabel: ReactNode;
  width: number;
  testId: string;
}): ReactNode {
  return (
    <Select<V | 0>
      value={value ?? 0}
      onChange={(v) => onChange(v === 0 ? undefined : v)}
      options={[{ value: 0, label: allLabel }, ...options]}
      style={{ width }}
      data-testid={testId}
    />
  );
}

/**
 * A cell of two lines: the main text, and under it a muted note cut to one line (a route and its file, a
 * time and who made it). No note, no second line.
 */
export function TwoLines({ main, note, noteTitle, noteTestId }: { main: ReactNode; note?: ReactNode; noteTitle?: string; noteTestId?: string }): ReactNode {
  return (
    <div className="admin-two-lines">
      <span>{main}</span>
      {note ? (
        <small title={noteTitle} data-testid={noteTestId}>
          {note}
        </small>
      ) : null}
    </div>
  );
}
