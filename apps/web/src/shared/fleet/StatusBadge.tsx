import type { ReactNode } from 'react';
import { OnlineStatus } from '@nest/contracts';
import { useI18n } from '../i18n';
import { markerColor } from '../map/markers';
import type { Holder } from './fleet';
import './fleet.css';

/**
 * The online status of a device. A held device (CONNECTED_BY_OTHER) reads "Controlled by you" in a colour
 * of its own when the signed-in user holds it, else "Connected by <nick>" (or the plain status when nobody
 * is named).
 */
export function StatusBadge({ state, holder }: { state: number; holder: Holder | null }): ReactNode {
  const { t, lang } = useI18n();
  const held = state === OnlineStatus.CONNECTED_BY_OTHER;
  const mine = held && holder?.mine === true;
  const nick = held && holder && !holder.mine ? holder.nick : null;
  const text = mine ? t('fleet.status.mine') : nick ? t('fleet.status.heldBy', { nick }) : OnlineStatus.label(state, lang);
  return (
    <span
      className={`status-badge status-${state}${mine ? ' status-mine' : ''}`}
      data-testid="status-badge"
      data-state={state}
      data-holder={held ? (mine ? 'me' : 'other') : undefined}
      title={text}
      style={{ ['--badge-color' as string]: markerColor(state, mine) }}
    >
      <i />
      {text}
    </span>
  );
}
