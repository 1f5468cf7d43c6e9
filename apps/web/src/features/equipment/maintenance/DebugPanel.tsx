import { useState, type ReactNode } from 'react';
import { Alert, Button, Space } from 'antd';
import { DEBUG_ACTIONS, DebugAction, type DebugActionValue } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';
import { OpStatus } from './OpStatus';
import type { PanelProps } from './panels';
import { latestOf } from './useMaintenance';

/**
 * Remote debug of a DJI dock: one button per action (cover, drone power, charging, reboot). The server runs
 * each inside the dock's debug mode; the latest debug operation shows below with the dock's progress (live from
 * push 390; the buttons wait while it runs) and its end state or refusal text.
 */
export function DebugPanel({ device, data, allowed, blocked, run }: PanelProps): ReactNode {
  const { t, lang } = useI18n();
  const [busy, setBusy] = useState<DebugActionValue | null>(null);
  const latest = latestOf(data.list, 'debug');
  return (
    <div className="maint-panel" data-testid="debug-panel">
      <span className="maint-muted">{t('maintenance.debug.hint')}</span>
      {!allowed ? (
        <Alert type="info" showIcon title={t('maintenance.noPermission')} />
      ) : (
        <Space wrap>
          {DEBUG_ACTIONS.map((action) => (
            <Button
              key={action}
              data-testid={`debug-${action}`}
              danger={action === 'reboot'}
              loading={busy === action}
              disabled={!!blocked || (busy !== null && busy !== action) || latest?.state === 'running'}
              onClick={() => void (async () => {
                setBusy(action);
                await run('deviceDebug', { sn_id: device.sn_id, action });
                setBusy(null);
              })()}
            >
              {DebugAction.label(action, lang)}
            </Button>
          ))}
        </Space>
      )}
      <OpStatus op={latest} />
    </div>
  );
}
