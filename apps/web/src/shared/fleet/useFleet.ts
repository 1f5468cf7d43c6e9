import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  DEVICE_LIST_DEFAULT_PAGE,
  DEVICE_LIST_DEFAULT_SIZE,
  DEVICE_LIST_DEFAULT_TYPE,
  PushMsgId,
  SocketState,
  deviceStatusPush,
  deviceTelemetryPush,
  fleetUpdatePush,
  telemetryData,
  type DeviceListItem,
  type Page,
} from '@nest/contracts';
import { call } from '../request';
import { getPush, onPush, usePushState } from '../push';
import { useUser } from '../session';
import { takeFirstRead } from './firstReads';
import { applyFleetUpdate, applyStatus, applyTelemetry, markMine, mergeList, readAllPages, unknownSns, type FleetDevice } from './fleet';

/** The list is read again this often (new devices, stream urls); live changes arrive by push meanwhile. */
const LIST_REFRESH_MS = 30_000;
/** A fleet batch naming devices the list does not have reads the list again, at most this often. */
const UNKNOWN_RELOAD_MS = 5_000;

type ListPage = Page<DeviceListItem>;

/** The name of the device list read a screen may start before it mounts (keepFirstReads). */
export const FLEET_FIRST_READ = 'deviceList';

export interface FleetState {
  devices: FleetDevice[];
  loading: boolean;
  failed: boolean;
  reload: () => void;
}

/**
 * The fleet: /device/list (the read started at sign-in when there is one), then live
 * updates: 210 {on:true} while mounted (again after each reconnect), 310 batches, 301 statuses, 300
 * telemetry of verified devices; 210 {on:false} on leave.
 */
export function useFleet(): FleetState {
  const [devices, setDevices] = useState<FleetDevice[]>([]);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const devicesRef = useRef(devices);
  devicesRef.current = devices;
  const loadingRef = useRef(false);
  const unknownReloadAt = useRef(0);

  const load = useCallback(async (quiet: boolean) => {
    if (loadingRef.current) return;
    loadingRef.current = true;
    try {
      const first =
        takeFirstRead<ListPage>(FLEET_FIRST_READ) ??
        call('deviceList', { type: DEVICE_LIST_DEFAULT_TYPE, page: DEVICE_LIST_DEFAULT_PAGE, size: DEVICE_LIST_DEFAULT_SIZE }, { quiet });
      const items = await readAllPages(first, DEVICE_LIST_DEFAULT_SIZE, (page) =>
        call('deviceList', { type: DEVICE_LIST_DEFAULT_TYPE, page: DEVICE_LIST_DEFAULT_PAGE + page, size: DEVICE_LIST_DEFAULT_SIZE }, { quiet }),
      );
      setDevices((prev) => mergeList(prev, items));
      setFailed(false);
    } catch {
      setFailed(true);
    } finally {
      loadingRef.current = false;
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load(false);
    const timer = setInterval(() => void load(true), LIST_REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  useEffect(() => {
    const offFleet = onPush(PushMsgId.FLEET_UPDATE, (data) => {
      const parsed = fleetUpdatePush.safeParse(data);
      if (!parsed.success) return;
      const now = Date.now();
      if (!loadingRef.current && now - unknownReloadAt.current >= UNKNOWN_RELOAD_MS && unknownSns(devicesRef.current, parsed.data.devices).length > 0) {
        unknownReloadAt.current = now;
        void load(true);
      }
      setDevices((prev) => applyFleetUpdate(prev, parsed.data.devices));
    });
    const offStatus = onPush(PushMsgId.DEVICE_STATUS, (data) => {
      const parsed = deviceStatusPush.safeParse(data);
      if (parsed.success) setDevices((prev) => applyStatus(prev, parsed.data));
    });
    const offTelemetry = onPush(PushMsgId.DEVICE_TELEMETRY, (data) => {
      const parsed = deviceTelemetryPush.safeParse(data);
      if (!parsed.success) return;
      const telemetry = telemetryData.safeParse(parsed.data.telemetry);
      if (telemetry.success) setDevices((prev) => applyTelemetry(prev, parsed.data.sn_id, parsed.data.state, telemetry.data));
    });
    return () => {
      offFleet();
      offStatus();
      offTelemetry();
    };
  }, [load]);

  // Fleet updates on this socket: subscribe whenever it (re)opens, unsubscribe on leaving the screen.
  const pushState = usePushState();
  useEffect(() => {
    if (pushState !== SocketState.OPEN) return;
    const push = getPush();
    try {
      push?.send(PushMsgId.FLEET_SUBSCRIBE, { on: true });
    } catch {
      /* closed meanwhile: sent again when it opens */
    }
  }, [pushState]);
  useEffect(
    () => () => {
      try {
        getPush()?.send(PushMsgId.FLEET_SUBSCRIBE, { on: false });
      } catch {
        /* the socket is gone: nothing to stop */
      }
    },
    [],
  );

  // Devices the signed-in user holds are marked, so that every view tells "you" from someone else.
  const meId = useUser()?.u_id;
  const marked = useMemo(() => markMine(devices, meId), [devices, meId]);

  return { devices: marked, loading, failed, reload: () => void load(false) };
}
