import type { ReactNode } from 'react';
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import type { DjiCredentials } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';

/**
 * A DJI gateway's broker credentials, shown once after adding the device or issuing new ones: what to type
 * in DJI Pilot 2's cloud set-up of the dock, each with a copy button. The server keeps no copy of the
 * password, so the dialog says it is not shown again and where new ones come from.
 */
export function CredentialsDialog({ credentials, name, onClose }: { credentials: DjiCredentials | null; name: string; onClose: () => void }): ReactNode {
  const { t } = useI18n();
  if (!credentials) return null;
  const row = (label: string, value: string, testId: string) => ({
    key: testId,
    label,
    children: (
      <Typography.Text code copyable={{ text: value, tooltips: [t('equipment.dji.copy'), t('equipment.dji.copied')] }} data-testid={testId}>
        {value}
      </Typography.Text>
    ),
  });
  return (
    <Modal
      open
      width={640}
      title={t('equipment.dji.title', { name })}
      onCancel={onClose}
      mask={{ closable: false }}
      footer={
        <Button type="primary" onClick={onClose} data-testid="dji-credentials-close">
          {t('equipment.dji.done')}
        </Button>
      }
    >
      <div data-testid="dji-credentials">
        <Typography.Paragraph>{t('equipment.dji.intro')}</Typography.Paragraph>
        <Descriptions
          column={1}
          bordered
          size="small"
          items={[
            row(t('equipment.dji.mqttUrl'), credentials.mqtt_url, 'dji-mqtt-url'),
            row(t('equipment.dji.username'), credentials.username, 'dji-username'),
            row(t('equipment.dji.password'), credentials.password, 'dji-password'),
          ]}
        />
        <Alert type="warning" showIcon title={t('equipment.dji.once')} style={{ marginTop: 16 }} data-testid="dji-credentials-once" />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('equipment.dji.docs')}
        </Typography.Paragraph>
      </div>
    </Modal>
  );
}
