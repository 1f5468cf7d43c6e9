import {
  CALIBRATION_ITEMS,
  FIRMWARE_DOWNLOAD_PATH,
  LOG_UPLOAD_PATH,
  MaintenanceKind,
  MaintenanceMethod,
  NEST_FIRMWARE_TYPE,
  RecordState,
  debugReplyOutput,
  ResultCode,
  opReasonText,
  type DeviceOp,
  type MaintenanceKindValue,
  type MaintenanceLive,
} from '@nest/contracts';
import { callerOf } from '../calls/caller.js';
import { CallError, type Message } from '../calls/errors.js';
import type { Caller, Handlers } from '../calls/types.js';
import type { DeviceRow } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { updateDeviceRow } from '../devices/api.js';
import { firmwareDeviceLink } from '../firmware/api.js';
import { holdAllows, inAir, processRunning } from '../flight/api.js';
import { isSuper } from '../db/scope.js';
import type { Maintenance, Sent } from './service.js';
import { signedLink } from '../storage/links.js';
import { LOG_LINK_PURPOSE, OpRunningError, findOp, listOps, presentOp, type OpRow } from './store.js';
import { MAINT_TEXTS } from './texts.js';

const STATE_NORMAL: number = RecordState.NORMAL;
const refuse = (msg: Message, code: number = ResultCode.BAD_REQUEST) => new CallError(code, msg);

interface Gate {
  /** Refuse while the drone flies or a flow / mission runs, with this text. */
  busyText?: Message;
  offlineText?: Message;
}

/**
 * The maintenance calls (README.md). Every one: the device must be the caller's company's (super
 * administrator: any; otherwise NOT_FOUND_OBJECT), enabled (DEVICE_DISABLED), not held by someone else
 * (DEVICE_BUSY), online (DEVICE_OFFLINE) and, per kind, on the ground and idle. The row is written first,
 * then the command goes out; the answer is the operation (DeviceOp). A command the device refuses, does not
 * answer or drops answers the matching error (the row records it too).
 */
export function maintenanceHandlers(deps: AppDeps, maint: Maintenance): Handlers {
  const { db, live } = deps;

  function visibleDevice(caller: Caller, sn: string): DeviceRow {
    const device = live.directory.get(sn);
    if (!device || Number(device.state) !== STATE_NORMAL) throw refuse(MAINT_TEXTS.noDevice, ResultCode.NOT_FOUND_OBJECT);
    if (!isSuper(caller.funList) && device.company_id !== caller.user.company_id) throw refuse(MAINT_TEXTS.noDevice, ResultCode.NOT_FOUND_OBJECT);
    return device;
  }

  function gate(caller: Caller, device: DeviceRow, g: Gate): void {
    if (Number(device.enabled) !== 1) throw new CallError(ResultCode.DEVICE_DISABLED);
    const holder = live.status.holder(device.sn_id);
    if (!holdAllows({ u_id: caller.user.u_id, source: 'console' }, holder)) throw new CallError(ResultCode.DEVICE_BUSY);
    if (!live.link.isOnline(device.sn_id)) throw refuse(g.offlineText ?? MAINT_TEXTS.offline, ResultCode.DEVICE_OFFLINE);
    if (g.busyText) {
      const d = live.link.device(device.sn_id);
      if (inAir(d?.telemetry ?? null) === true || processRunning(d?.state ?? null)) throw refuse(g.busyText, ResultCode.DEVICE_BUSY);
    }
  }

  async function open(caller: Caller, device: DeviceRow, kind: MaintenanceKindValue, params: Record<string, unknown>): Promise<OpRow> {
    try {
      return await maint.open({ sn_id: device.sn_id, company_id: device.company_id, kind, params, u_id: caller.user.u_id, user_name: caller.user.nick });
    } catch (err) {
      if (err instanceof OpRunningError) throw refuse(MAINT_TEXTS.running({ zh: MaintenanceKind.label(kind, 'zh'), en: MaintenanceKind.label(kind, 'en') }), ResultCode.DEVICE_BUSY);
      throw err;
    }
  }

  /** The call's answer for what the command came to: the operation, or the error it ended with. */
  function answer(sent: Sent, timeoutText?: Message): { data: DeviceOp } {
    const op = presentOp(sent.row);
    if (sent.status === 'ok') return { data: op };
    const text: Message = (l) => opReasonText(op, l);
    if (sent.status === 'timeout') throw refuse(timeoutText ?? text, ResultCode.DEVICE_NO_ANSWER);
    if (sent.status === 'offline') throw refuse(MAINT_TEXTS.offline, ResultCode.DEVICE_OFFLINE);
    throw refuse(text);
  }

  /** One-shot settings: on success the row ends ok and the value is stored on the device row. */
  async function setting(
    caller: Caller,
    device: DeviceRow,
    kind: 'beacon' | 'azimuth',
    method: string,
    data: Record<string, unknown>,
    store: Partial<DeviceRow>,
  ): Promise<{ data: DeviceOp }> {
    gate(caller, device, {});
    const row = await open(caller, device, kind, data);
    const sent = await maint.send(row, method, data);
    if (sent.status !== 'ok') return answer(sent, kind === 'azimuth' ? MAINT_TEXTS.azimuthTimeout : MAINT_TEXTS.beaconTimeout);
    await updateDeviceRow(db, device.id, store);
    await live.directory.changed();
    const done = (await maint.change(row.id, { state: 'ok', outcome: { stage: 'done' } })) ?? row;
    return { data: presentOp(done) };
  }

  return {
    deviceUpgrade: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const device = visibleDevice(caller, ctx.fields.sn_id);
      const rom = await db
        .selectFrom('firmware')
        .selectAll()
        .where('id', '=', ctx.fields.rom_id)
        .where('state', '=', STATE_NORMAL)
        .executeTakeFirst();
      if (!rom) throw refuse(MAINT_TEXTS.noFirmware, ResultCode.NOT_FOUND_OBJECT);
      if (Number(rom.type) !== NEST_FIRMWARE_TYPE || device.type === 'alone') throw refuse(MAINT_TEXTS.notNestFirmware);
      gate(caller, device, { offlineText: MAINT_TEXTS.firmwareOffline, busyText: MAINT_TEXTS.firmwareOnMission });
      const params = {
        rom_id: rom.id,
        version_code: Number(rom.version_code),
        version_name: rom.version_name,
        from: live.link.device(device.sn_id)?.firmware ?? null,
      };
      const row = await open(caller, device, 'upgrade', params);
      const sent = await maint.send(row, MaintenanceMethod.UPGRADE, {
        op_id: row.id,
        url: `${FIRMWARE_DOWNLOAD_PATH}/${rom.id}`,
        size: Number(rom.size),
        sha256: rom.sha256,
        version_code: Number(rom.version_code),
        version_name: rom.version_name,
        // What a device that downloads on a signed link and checks MD5 (a DJI dock's ota_create) needs.
        link: await firmwareDeviceLink(db, deps.config.bases.device, rom.id),
        md5: rom.md5,
        ...(rom.file_name ? { file_name: rom.file_name.slice(0, 128) } : {}),
      });
      return answer(sent);
    },

    deviceCalibrate: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const device = visibleDevice(caller, ctx.fields.sn_id);
      gate(caller, device, { busyText: MAINT_TEXTS.flying });
      // Each item once, in the fixed order (gyroscope, compass, acceleration).
      const asked = new Set(ctx.fields.items ?? CALIBRATION_ITEMS);
      const items = CALIBRATION_ITEMS.filter((i) => asked.has(i));
      const row = await open(caller, device, 'calibrate', { items });
      return answer(await maint.send(row, MaintenanceMethod.CALIBRATE, { op_id: row.id, items }));
    },

    deviceBeacon: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const device = visibleDevice(caller, ctx.fields.sn_id);
      const beacon = ctx.fields.beacon;
      return setting(caller, device, 'beacon', MaintenanceMethod.BEACON, { beacon }, { beacon: JSON.stringify(beacon) });
    },

    deviceAzimuth: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const device = visibleDevice(caller, ctx.fields.sn_id);
      const azimuth = ctx.fields.azimuth;
      return setting(caller, device, 'azimuth', MaintenanceMethod.AZIMUTH, { azimuth }, { azimuth });
    },

    deviceRtk: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const device = visibleDevice(caller, ctx.fields.sn_id);
      gate(caller, device, {});
      const f = ctx.fields;
      const settings = { url: f.url, port: f.port, mount_point: f.mount_point ?? '', user: f.user ?? '', password: f.password ?? '' };
      // The caster password goes to the device only: the row keeps whether one was given.
      const { password, ...shown } = settings;
      const row = await open(caller, device, 'rtk', { ...shown, password_set: password !== '' });
      return answer(await maint.send(row, MaintenanceMethod.RTK, { op_id: row.id, ...settings }));
    },

    deviceLog: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const device = visibleDevice(caller, ctx.fields.sn_id);
      if (device.type === 'alone') throw refuse(MAINT_TEXTS.noLogs);
      gate(caller, device, {});
      const row = await open(caller, device, 'log', {});
      return answer(await maint.send(row, MaintenanceMethod.LOG, { op_id: row.id, url: `${LOG_UPLOAD_PATH}/${row.id}` }));
    },

    // The device's answer decides: a DJI dock runs the action in debug mode, a device without it refuses.
    deviceDebug: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const device = visibleDevice(caller, ctx.fields.sn_id);
      gate(caller, device, { busyText: MAINT_TEXTS.flying });
      const action = ctx.fields.action;
      const row = await open(caller, device, 'debug', { action });
      const sent = await maint.send(row, MaintenanceMethod.DEBUG, { op_id: row.id, action });
      if (sent.status !== 'ok') return answer(sent);
      // A device that reports the action's progress ends the operation by its events (or the idle limit).
      if (debugReplyOutput.safeParse(sent.output).data?.progress === true) {
        return { data: presentOp((await findOp(db, row.id)) ?? row) };
      }
      const done = (await maint.change(row.id, { state: 'ok', progress: 100, outcome: { stage: 'done' } })) ?? (await findOp(db, row.id)) ?? row;
      return { data: presentOp(done) };
    },

    deviceOps: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const device = visibleDevice(caller, ctx.fields.sn_id);
      const { rows, total } = await listOps(db, { sn_id: device.sn_id, kind: ctx.fields.kind || undefined, page: ctx.fields.page, size: ctx.fields.size });
      const l = live.link.device(device.sn_id);
      const drone = l?.telemetry?.drone;
      const state = (l?.state ?? {}) as { drone?: { rtk_status?: unknown; ntrip_state?: unknown } };
      const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
      const liveFacts: MaintenanceLive = {
        online: live.link.isOnline(device.sn_id),
        firmware: l?.firmware ?? null,
        rtk_status: drone ? drone.rtk.status : num(state.drone?.rtk_status),
        ntrip_state: drone ? drone.rtk.ntrip_state : num(state.drone?.ntrip_state),
        azimuth: Number(device.azimuth),
        beacon: device.beacon ? (JSON.parse(device.beacon) as MaintenanceLive['beacon']) : null,
      };
      // A log's download link is signed here, for callers of this call only; pushes carry the bare path.
      const list = await Promise.all(
        rows.map(async (row) => {
          const op = presentOp(row);
          if (op.file) op.file = { ...op.file, url: await signedLink(db, op.file.url, LOG_LINK_PURPOSE, op.id) };
          return op;
        }),
      );
      return { data: { list, total, live: liveFacts } };
    },
  };
}
