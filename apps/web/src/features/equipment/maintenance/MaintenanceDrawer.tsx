import type { ReactNode } from 'react';
import { Drawer } from 'antd';
import type { DeviceListItem } from '@nest/contracts';

/**
 * Device maintenance of one device (firmware upgrade, calibration, beacon, azimuth, RTK, log upload).
 * Seam for issue 7: the equipment screen opens it with the chosen device; `device` null keeps it closed.
 */
export default function MaintenanceDrawer({ device, onClose }: { device: DeviceListItem | null; onClose: () => void }): ReactNode {
  return <Drawer open={device !== null} onClose={onClose} title={device?.name ?? ''} size={720} data-testid="maintenance-drawer" />;
}
