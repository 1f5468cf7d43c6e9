import type { ReactNode } from 'react';
import { Alert, Button } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useI18n } from '../i18n';
import './admin.css';

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
