import { useEffect, useState } from 'react';
import { PushMsgId, SocketState, deviceTelemetryPush, telemetryData, type TelemetryData } from '@nest/contracts';
import { getPush, onPush, usePushState } from '../../shared/push';

export interface DeviceLive {
  telemetry: TelemetryData | null;
  /** Server receive time (ms) of the latest telemetry. */
  at: number | null;
  verified: boolean;
}

/** Verifies the device on the push connection (200; again after reconnects) and follows its telemetry (300). */
export function useDeviceLive(sn: string): DeviceLive {
  const [live, setLive] = useState<DeviceLive>({ telemetry: null, at: null, verified: false });
  const pushState = usePushState();

  useEffect(() => {
    setLive({ telemetry: null, at: null, verified: false });
    return onPush(PushMsgId.DEVICE_TELEMETRY, (data) => {
      const parsed = deviceTelemetryPush.safeParse(data);
      if (!parsed.success || parsed.data.sn_id !== sn) return;
      const telemetry = telemetryData.safeParse(parsed.data.telemetry);
      if (telemetry.success) setLive({ telemetry: telemetry.data, at: parsed.data.at, verified: true });
    });
  }, [sn]);

  useEffect(() => {
    if (pushState !== SocketState.OPEN) return;
    try {
      getPush()?.verifyEquipment(sn);
      setLive((l) => ({ ...l, verified: true }));
    } catch {
      /* closed meanwhile: verified again when it opens */
    }
  }, [sn, pushState]);

  return live;
}
