import type { ReactNode } from 'react';
import { Button, Descriptions, Modal } from 'antd';
import { DIALOG_LABEL_WIDTH, type User } from '@nest/contracts';
import { formatAccountEnd, formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';

/** Read-only user information (SPEC section 2). */
export function UserInfoDialog({ user, onClose }: { user: User; onClose: () => void }): ReactNode {
  const { t } = useI18n();
  return (
    <Modal
      open
      title={t('info.title')}
      width={520}
      centered
      onCancel={onClose}
      destroyOnHidden
      modalRender={(node) => <div data-testid="info-dialog">{node}</div>}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      <Descriptions
        column={1}
        bordered
        size="middle"
        styles={{ label: { width: DIALOG_LABEL_WIDTH } }}
        items={[
          { key: 'nick', label: t('account.nick'), children: user.nick },
          { key: 'account', label: t('account.account'), children: user.phone },
          { key: 'start', label: t('account.startTime'), children: formatSeconds(user.start_time) },
          { key: 'end', label: t('account.endTime'), children: formatAccountEnd(user.end_time) },
        ]}
      />
    </Modal>
  );
}
