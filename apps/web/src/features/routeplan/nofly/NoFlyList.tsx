import type { ReactNode } from 'react';
import { Tag } from 'antd';
import { NoFlyShape, type NoFlyZone } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';
import { noFlyStatus, type NoFlyStatus } from '../../../shared/map/noFly';
import { validityText } from './conflicts';

/** Tag colour of each status: in force red, waiting blue, past grey. */
const STATUS_COLOR: Readonly<Record<NoFlyStatus, string>> = { active: 'red', upcoming: 'blue', expired: 'default' };

export interface NoFlyListProps {
  zones: readonly NoFlyZone[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** Device names by sn (a zone of one device shows its name). */
  deviceNames: ReadonlyMap<string, string>;
  /** Unix seconds the statuses are given for. */
  now: number;
}

/**
 * The company's no-fly zones as list rows: name and status (in force, not yet valid, expired), then shape,
 * the device it applies to (or every device) and the validity period in the language's date format.
 */
export function NoFlyList({ zones, selectedId, onSelect, deviceNames, now }: NoFlyListProps): ReactNode {
  const { t, lang } = useI18n();
  return zones.map((z) => {
    const status = noFlyStatus(z, now);
    return (
      <li key={z.id} className={z.id === selectedId ? 'active' : ''} onClick={() => onSelect(z.id)} data-testid="nofly-item" data-name={z.name} data-status={status}>
        <div className="routeplan-item-title">
          <span>{z.name}</span>
          <Tag color={STATUS_COLOR[status]} data-testid="nofly-status">
            {t(`map.noFly.status.${status}`)}
          </Tag>
        </div>
        <div className="routeplan-item-meta">
          {NoFlyShape.label(z.shape, lang)} · {z.sn_id ? (deviceNames.get(z.sn_id) ?? z.sn_id) : t('routeplan.nofly.allDevices')} · {validityText(z, lang, t)}
        </div>
        {z.reason && <div className="routeplan-item-meta routeplan-item-reason">{z.reason}</div>}
      </li>
    );
  });
}
