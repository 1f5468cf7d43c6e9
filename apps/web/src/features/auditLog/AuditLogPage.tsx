import { useState, type ReactNode } from 'react';
import { DatePicker, Select, Tag, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { AUDIT_KINDS, AUDIT_RETENTION_DAYS, type AuditEntry, type AuditKind } from '@nest/contracts';
import { AdminPage, AdminTable, timeColumn, usePagedList } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { describeDetail } from './detail';
import { auditKindKey } from './messages';

const PAGE_SIZE = 20;

/** auditLog: the security audit log of the caller's company (a super administrator: every company), newest first. */
export default function AuditLogPage(): ReactNode {
  const { t } = useI18n();
  const [account, setAccount] = useState('');
  const [kind, setKind] = useState<AuditKind | ''>('');
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const query = {
    kind: kind || undefined,
    account: account || undefined,
    start_time: range?.[0] ? range[0].startOf('day').unix() : undefined,
    end_time: range?.[1] ? range[1].endOf('day').unix() : undefined,
  };
  const list = usePagedList('auditList', query, PAGE_SIZE);
  const kindLabel = (k: AuditKind) => t(`auditLog.kind.${auditKindKey(k)}`);

  const columns: TableColumnsType<AuditEntry> = [
    timeColumn(t('auditLog.col.at'), 'at', (e) => e.at, 170),
    { title: t('auditLog.col.kind'), key: 'kind', render: (_, e) => kindLabel(e.kind) },
    { title: t('auditLog.col.actor'), key: 'actor', render: (_, e) => (e.u_id ? e.user_name || e.u_id : <Typography.Text type="secondary">{t('auditLog.unknownActor')}</Typography.Text>) },
    { title: t('auditLog.col.account'), key: 'account', render: (_, e) => e.account || '--' },
    {
      title: t('auditLog.col.target'),
      key: 'target',
      ellipsis: true,
      // The target's name (a user's name and account...) from the server; the raw id stays in the tooltip.
      render: (_, e) => (e.target ? <span title={e.target} data-testid="audit-target">{e.target_name || e.target}</span> : '--'),
    },
    {
      title: t('auditLog.col.outcome'),
      key: 'outcome',
      render: (_, e) => <Tag color={e.outcome === 'ok' ? 'green' : 'red'}>{t(`auditLog.outcome.${e.outcome}` as const)}</Tag>,
    },
    { title: t('auditLog.col.ip'), key: 'ip', render: (_, e) => e.ip || '--' },
    {
      title: t('auditLog.col.detail'),
      key: 'detail',
      ellipsis: true,
      render: (_, e) => {
        const text = describeDetail(e.detail, t);
        return <span title={text}>{text}</span>;
      },
    },
  ];

  return (
    <AdminPage
      testId="audit-log"
      title={t('auditLog.title')}
      search={{ placeholder: t('auditLog.searchPlaceholder'), onSearch: setAccount, width: 280, testId: 'audit-log-search' }}
      filters={
        <>
          <Select
            value={kind}
            onChange={(v) => setKind(v)}
            options={[{ value: '', label: t('auditLog.allKinds') }, ...AUDIT_KINDS.map((k) => ({ value: k, label: kindLabel(k) }))]}
            style={{ width: 170 }}
            data-testid="audit-log-kind"
          />
          <DatePicker.RangePicker value={range} onChange={(v) => setRange(v)} data-testid="audit-log-range" />
        </>
      }
      onRefresh={list.reload}
    >
      <Typography.Text type="secondary">{t('auditLog.hint', { days: AUDIT_RETENTION_DAYS })}</Typography.Text>
      <AdminTable<AuditEntry> list={list} columns={columns} empty={t('auditLog.empty')} testId="audit-log-table" />
    </AdminPage>
  );
}
