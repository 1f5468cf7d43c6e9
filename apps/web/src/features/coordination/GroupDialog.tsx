import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Badge, Form, Input, Select, Space } from 'antd';
import { Company, OnlineStatus, RecordState, type CollaborationGroup, type DeviceListItem } from '@nest/contracts';
import { useSave } from '../../shared/admin';
import { SaveDialog, useFieldErrors } from '../../shared/dialogs';
import { useI18n } from '../../shared/i18n';
import { useCall } from '../../shared/query';
import { call } from '../../shared/request';
import { displayName } from '../../shared/fleet';
import { NAME_MAX, NOTES_MAX, groupAddFields, groupEditFields, groupIssues, type GroupForm } from './groups';

const STATUS_BADGE = { [OnlineStatus.ONLINE]: 'success', [OnlineStatus.OFFLINE]: 'default', [OnlineStatus.CONNECTED_BY_OTHER]: 'warning' } as const;
const USER_PAGE = 50;

interface MemberOption {
  value: string;
  label: string;
}

/** The add / edit dialog of a collaboration group: name, devices (with live status), members, notes. */
export function GroupDialog({
  open,
  group,
  devices,
  liveState,
  canListUsers,
  showCompany,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** null: a new group. */
  group: CollaborationGroup | null;
  devices: readonly DeviceListItem[];
  liveState: (sn: string) => number | undefined;
  canListUsers: boolean;
  showCompany: boolean;
  onClose: () => void;
  onSaved: () => void;
}): ReactNode {
  const { t, lang } = useI18n();
  const [form, setForm] = useState<GroupForm>({ name: '', device_ids: [], user_ids: [], notes: '' });
  const { attempt, reset, shown } = useFieldErrors();
  // A refusal (a device of another company, a taken name, ...) is shown by the request layer.
  const { saving, save: send } = useSave();

  useEffect(() => {
    if (!open) return;
    setForm({ name: group?.name ?? '', device_ids: group?.device_ids ?? [], user_ids: group?.user_ids ?? [], notes: group?.notes ?? '' });
    reset();
  }, [open, group, reset]);

  const companyLabel = (c: string) => (Company.has(c) ? Company.label(c, lang) : c);
  const userLabel = (nick: string, company: string) => (showCompany || (group && company !== group.company) ? `${nick} · ${companyLabel(company)}` : nick);

  // The users to choose members from: read once per opening, and again for each search typed.
  const [userSearch, setUserSearch] = useState('');
  useEffect(() => {
    if (open) setUserSearch('');
  }, [open]);
  const users = useCall(
    'userList',
    open && canListUsers ? { page: 0, size: USER_PAGE, state: String(RecordState.NORMAL), ...(userSearch ? { search: userSearch } : {}) } : null,
    { quiet: true, keepPrevious: true },
  );
  const found: MemberOption[] = users.isError
    ? []
    : (users.data?.list ?? []).map((u) => ({ value: u.u_id, label: `${userLabel(u.nick, u.in_com.id)} (${u.phone})` }));
  const searching = users.isFetching;

  // The current members keep their labels (they may be of another company, outside the caller's user list).
  const memberOptions = [...found];
  for (const u of group?.users ?? []) if (!memberOptions.some((o) => o.value === u.u_id)) memberOptions.push({ value: u.u_id, label: userLabel(u.nick, u.company) });

  const deviceOptions = useMemo(() => {
    const opts = devices.map((d) => {
      const state = (liveState(d.sn_id) ?? d.state) as 1 | 2 | 3;
      return {
        value: d.sn_id,
        label: `${displayName(d)} (${d.sn_id})`,
        state,
        company: d.company,
      };
    });
    for (const sn of form.device_ids) if (!opts.some((o) => o.value === sn)) opts.push({ value: sn, label: sn, state: OnlineStatus.OFFLINE, company: '' });
    return opts;
  }, [devices, liveState, form.device_ids]);

  const issues = groupIssues(form);
  const nameError = issues.includes('name')
    ? t('admin.required', { field: t('coordination.form.name') })
    : issues.includes('nameLong')
      ? `${t('coordination.form.name')} ≤ ${NAME_MAX}`
      : null;
  const devicesError = issues.includes('devices') ? t('coordination.form.needDevice') : null;
  const notesError = issues.includes('notesLong') ? `${t('coordination.form.notes')} ≤ ${NOTES_MAX}` : null;

  const save = async () => {
    attempt();
    if (issues.length > 0) return;
    await send(() => (group ? call('comEdit', groupEditFields(form, group.id, canListUsers)) : call('comAdd', groupAddFields(form, canListUsers))), onSaved);
  };

  return (
    <SaveDialog
      open={open}
      title={group ? t('coordination.form.editTitle') : t('coordination.form.addTitle')}
      width={620}
      saving={saving}
      onSave={() => void save()}
      onClose={onClose}
      saveTestId="group-save"
    >
      <Form layout="vertical" data-testid="group-form">
        <Form.Item label={t('coordination.form.name')} required {...shown(nameError)}>
          <Input value={form.name} maxLength={NAME_MAX} onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))} data-testid="group-name" />
        </Form.Item>
        <Form.Item label={t('coordination.form.devices')} required {...shown(devicesError, t('coordination.form.devicesHint'))}>
          <Select
            mode="multiple"
            allowClear
            showSearch
            optionFilterProp="label"
            value={form.device_ids}
            onChange={(v: string[]) => setForm((f) => ({ ...f, device_ids: v }))}
            options={deviceOptions}
            optionRender={(o) => (
              <Space>
                <Badge status={STATUS_BADGE[o.data.state]} />
                <span>{o.data.label}</span>
                <small className="group-option-note">{OnlineStatus.label(o.data.state, lang)}</small>
                {showCompany && o.data.company && <small className="group-option-note">{companyLabel(o.data.company)}</small>}
              </Space>
            )}
            data-testid="group-devices"
          />
        </Form.Item>
        <Form.Item label={t('coordination.form.members')} extra={canListUsers ? t('coordination.form.membersHint') : t('coordination.form.membersNoList')}>
          <Select
            mode="multiple"
            allowClear
            showSearch
            filterOption={false}
            disabled={!canListUsers}
            loading={searching}
            value={form.user_ids}
            onSearch={(text) => setUserSearch(text.trim())}
            onChange={(v: string[]) => setForm((f) => ({ ...f, user_ids: v }))}
            options={memberOptions}
            data-testid="group-members"
          />
        </Form.Item>
        <Form.Item label={t('coordination.form.notes')} {...shown(notesError)}>
          <Input.TextArea
            value={form.notes}
            maxLength={NOTES_MAX}
            autoSize={{ minRows: 2, maxRows: 4 }}
            onChange={(e) => setForm((f) => ({ ...f, notes: e.target.value }))}
            data-testid="group-notes"
          />
        </Form.Item>
      </Form>
    </SaveDialog>
  );
}
