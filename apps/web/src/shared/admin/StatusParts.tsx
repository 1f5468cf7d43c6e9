import type { ReactNode } from 'react';
import { Alert, Button, type TableColumnsType, type TableProps } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useI18n } from '../i18n';
import { AdminTable } from './AdminTable';
import './admin.css';

/** Devices a status screen shows on one page of its table. */
const STATUS_PAGE_SIZE = 20;

/** How a polled status screen (navigation environment, networking) reads: when it refreshes, and a refresh now. */
export function RefreshStatus({ status, onRefresh, label, testId }: { status: ReactNode; onRefresh: () => void; label: string; testId?: string }): ReactNode {
  return (
    <>
      <span className="admin-muted" data-testid={testId}>
        {status}
      </span>
      <Button icon={<ReloadOutlined />} onClick={onRefresh}>
        {label}
      </Button>
    </>
  );
}

/** The top of a status screen: what it shows, then why it shows nothing (no permission, a failed read). */
export function StatusNotes({ subtitle, allowed, failed }: { subtitle: string; allowed: boolean; failed: string | null }): ReactNode {
  const { t } = useI18n();
  return (
    <>
      <p className="admin-muted admin-subtitle">{subtitle}</p>
      {!allowed && <Alert type="warning" showIcon title={t('admin.noPermission')} />}
      {failed !== null && <Alert type="error" showIcon title={failed} />}
    </>
  );
}

/**
 * The device table of a status screen: the devices it read (filtered in the page), one row per serial number,
 * small rows, pages of STATUS_PAGE_SIZE; when empty it says whether there are no devices at all or none match.
 */
export function StatusTable<R extends { sn_id: string }>({
  rows,
  loading,
  columns,
  noDevices,
  empty,
  noMatch,
  testId,
  fitColumns,
  rowClassName,
}: {
  rows: readonly R[];
  loading: boolean;
  columns: TableColumnsType<R>;
  /** No device was read at all (rather than none matching the filters). */
  noDevices: boolean;
  empty: string;
  noMatch: string;
  testId: string;
  fitColumns?: boolean;
  rowClassName?: TableProps<R>['rowClassName'];
}): ReactNode {
  return (
    <AdminTable<R>
      rows={rows}
      loading={loading}
      pageSize={STATUS_PAGE_SIZE}
      rowKey="sn_id"
      size="small"
      fitColumns={fitColumns}
      columns={columns}
      rowClassName={rowClassName}
      empty={noDevices ? empty : noMatch}
      emptyImage="default"
      testId={testId}
    />
  );
}
