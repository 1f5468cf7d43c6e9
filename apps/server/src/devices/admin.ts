import { AZIMUTH_INVALID, DeviceProtocol, LinkType, ResultCode, isDeviceSn, isSn, type Device, type DeviceAdded, type ParsedFields } from '@nest/contracts';
import { callerOf } from '../calls/caller.js';
import { CallError, type Message } from '../calls/errors.js';
import type { Caller, Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import type { DeviceRow } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { inAir, processRunning } from '../flight/api.js';
import { findCompany } from '../users/api.js';
import { STATE_DELETED, STATE_NORMAL } from '../db/sql.js';
import { DEVICE_ADMIN_TEXTS as T } from './admin-texts.js';
import type { DeviceDirectory } from './directory.js';
import { inScope } from './directory.js';
import { scopeOf } from '../db/scope.js';
import {
  SnTakenError,
  createDevice,
  deviceColumns,
  findDeviceById,
  findDeviceBySn,
  presentDevice,
  updateDeviceRow,
  type DeviceFields,
} from './store.js';
import { actorOf, audit } from '../audit/api.js';
import { djiCredentials, djiMqttUrl, isDji, raiseSecretGen } from './dji.js';

type AddFields = ParsedFields<'deviceAdd'>;

const refuse = (msg: Message, code: number = ResultCode.BAD_REQUEST) => new CallError(code, msg);

/**
 * The stored form of the sent fields, checked beyond the registry's schema: SN patterns (the sn is the
 * device's MQTT user name), nest fields required for a nest and absent for a single-soldier drone.
 * Optional fields left out are stored empty (an edit sends the whole device).
 */
export function checkedFields(f: AddFields, companyId: string): DeviceFields {
  if (!isDeviceSn(f.sn_id)) throw refuse(T.snPattern('sn_id'));
  const uavSn = f.uav_sn ?? '';
  if (uavSn !== '' && !isSn(uavSn)) throw refuse(T.snPattern('uav_sn'));
  const fields: DeviceFields = {
    type: f.type,
    link_type: f.link_type,
    airport_name: f.airport_name ?? '',
    uav_name: f.uav_name,
    uav_sn: uavSn,
    address: f.address ?? '',
    uav_model: f.uav_model ?? '',
    description: f.description ?? '',
    azimuth: f.azimuth,
    altn_point: f.altn_point ?? null,
    airport_point: f.airport_point ?? null,
    beacon: f.beacon ?? null,
    company_id: companyId,
  };
  if (f.type === 'alone') {
    // The airport point stays allowed: for a single-soldier drone it is its usual take-off place (map
    // position while offline, planning home).
    if (fields.airport_name || fields.altn_point || fields.beacon || fields.azimuth !== AZIMUTH_INVALID) throw refuse(T.aloneNoNest);
    if (fields.link_type === LinkType.NEST) throw refuse(T.aloneNoNestLink);
  } else {
    if (!fields.airport_name) throw refuse(T.nestNeedsName);
    if (!fields.airport_point) throw refuse(T.nestNeedsPoint);
  }
  return fields;
}

/** Every instance's directory learns a registry change made here (directory.ts `changed`). */
const learn = (directory: DeviceDirectory): Promise<void> => directory.changed();

/**
 * Equipment administration (SPEC: equipment). Company scope like /device/list: another company's device
 * does not exist for the caller (super administrator: every company).
 * - /device/add: registers a device; a nest-protocol device's broker password comes from the sn
 *   (link/credentials.ts), so it can connect at once; a DJI gateway's is answered once (devices/dji.ts).
 *   The sn of a deleted device registers that record again (the sn is unique for good, and history keyed
 *   by sn stays with the physical device); a DJI device's earlier password dies with a new generation.
 * - /device/edit: the whole device; sn fixed; protocol kept unless sent; refused while someone else holds
 *   its control connection or while it is disabled. A change of the broker rights (protocol, a DJI
 *   gateway's drone) closes the device's connection, so it logs in again under the new ones.
 * - /device/dji/credentials: a DJI device's new password (its generation raised), its connection closed.
 * - /device/delete: state 20; refused while held by someone else, disabled, or on a mission.
 * - /device/enable: enabled 1/0. Disabling is refused while held by someone else or on a mission (a
 *   disabled device is ignored on the link, so an airborne drone would lose its watch); a disabled
 *   device's broker connections are closed and its logins refused until enabled again.
 * Every change reaches the live directory before the answer (link checks, push scoping, status).
 */
export function deviceAdminHandlers(deps: AppDeps): Handlers {
  const { db, config } = deps;
  const { directory, status, link } = deps.live;
  const credentialsOf = (row: DeviceRow) => djiCredentials(deps.live.secrets.deviceKeyHex, row, djiMqttUrl(config, deps.live.brokerUrl));

  /** The company a device is filed under: the caller's own unless a super administrator names another. */
  async function companyFor(caller: Caller, wanted: string | undefined, current: string): Promise<string> {
    if (!wanted) return current;
    const company = await findCompany(db, wanted);
    if (!company || Number(company.state) !== STATE_NORMAL) throw refuse(T.noCompany);
    if (company.id !== caller.user.company_id && company.id !== current && !scopeOf(caller).all) {
      throw refuse(T.otherCompany, ResultCode.NO_PERMISSION);
    }
    return company.id;
  }

  async function visibleDevice(caller: Caller, id: string): Promise<DeviceRow> {
    const row = await findDeviceById(db, id);
    if (!row || Number(row.state) !== STATE_NORMAL || !inScope(scopeOf(caller), row)) throw refuse(T.noDevice, ResultCode.NOT_FOUND_OBJECT);
    return row;
  }

  /** Refuses when someone other than the caller holds the device's control connection (status 3). */
  function notHeldByOther(caller: Caller, row: DeviceRow): void {
    const holder = status.holder(row.sn_id);
    if (holder && holder.u_id !== caller.user.u_id) throw refuse(T.busy(holder.nick), ResultCode.DEVICE_BUSY);
  }

  /** Refuses while the drone is in the air or a flow / mission runs (as last reported while online). */
  function notOnMission(row: DeviceRow): void {
    if (!link.isOnline(row.sn_id)) return;
    const live = link.device(row.sn_id);
    if (inAir(live?.telemetry ?? null) === true || processRunning(live?.state ?? null)) throw refuse(T.onMission);
  }

  /** The caller's own hold ends with the device (deleted or disabled): nobody keeps a dead hold. */
  async function dropOwnHold(caller: Caller, row: DeviceRow): Promise<void> {
    if (status.holder(row.sn_id)?.u_id === caller.user.u_id) await status.release(row.sn_id, caller.user.u_id);
  }

  const answer = (row: DeviceRow): Device => presentDevice(row, status.status(row.sn_id));

  return {
    deviceAdd: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const f = ctx.fields;
      const fields = checkedFields(f, await companyFor(caller, f.company, caller.user.company_id));
      const protocol = f.protocol ?? DeviceProtocol.NEST;
      const existing = await findDeviceBySn(db, f.sn_id);
      let row: DeviceRow;
      if (existing && Number(existing.state) === STATE_DELETED) {
        row = await updateDeviceRow(db, existing.id, { ...deviceColumns(fields), protocol, enabled: 1, state: STATE_NORMAL, created_at: nowSeconds() });
        // Whatever password the earlier record had handed out stops working.
        if (isDji(row)) row = await raiseSecretGen(db, row.id);
      } else {
        if (existing) throw refuse(T.snTaken(f.sn_id));
        try {
          row = await createDevice(db, { ...fields, protocol, sn_id: f.sn_id });
        } catch (err) {
          if (err instanceof SnTakenError) throw refuse(T.snTaken(f.sn_id));
          throw err;
        }
      }
      await audit(db, {
        kind: 'device_add',
        ...actorOf(ctx),
        companyId: row.company_id,
        target: row.sn_id,
        detail: { name: row.uav_name, type: row.type, protocol: Number(row.protocol) },
      });
      await learn(directory);
      const data: DeviceAdded = isDji(row) ? { ...answer(row), dji: credentialsOf(row) } : answer(row);
      return { data };
    },

    deviceEdit: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const f = ctx.fields;
      const row = await visibleDevice(caller, f.id);
      if (f.sn_id !== row.sn_id) throw refuse(T.snFixed);
      if (Number(row.enabled) !== 1) throw refuse(T.disabled, ResultCode.DEVICE_DISABLED);
      notHeldByOther(caller, row);
      const fields = checkedFields(f, await companyFor(caller, f.company, row.company_id));
      const protocol = f.protocol ?? Number(row.protocol);
      const updated = await updateDeviceRow(db, row.id, { ...deviceColumns(fields), protocol });
      // New broker rights take effect on the next login: close the current connection.
      if (protocol !== Number(row.protocol) || (isDji(updated) && updated.uav_sn !== row.uav_sn)) await link.disconnect(row.sn_id);
      await learn(directory);
      return { data: answer(updated) };
    },

    deviceDjiCredentials: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const row = await visibleDevice(caller, ctx.fields.id);
      if (!isDji(row)) throw refuse(T.notDji);
      if (Number(row.enabled) !== 1) throw refuse(T.disabled, ResultCode.DEVICE_DISABLED);
      const updated = await raiseSecretGen(db, row.id);
      await audit(db, { kind: 'device_credentials', ...actorOf(ctx), companyId: row.company_id, target: row.sn_id, detail: { name: row.uav_name } });
      // The old password is refused from now on; the connection made with it is closed.
      await link.disconnect(row.sn_id);
      await learn(directory);
      return { data: credentialsOf(updated) };
    },

    deviceDelete: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const row = await visibleDevice(caller, ctx.fields.id);
      if (Number(row.enabled) !== 1) throw refuse(T.disabled, ResultCode.DEVICE_DISABLED);
      notHeldByOther(caller, row);
      notOnMission(row);
      await dropOwnHold(caller, row);
      await updateDeviceRow(db, row.id, { state: STATE_DELETED });
      await audit(db, { kind: 'device_delete', ...actorOf(ctx), companyId: row.company_id, target: row.sn_id, detail: { name: row.uav_name } });
      // A deleted device may not log in either (broker check: state 10): close what is connected.
      await link.disconnect(row.sn_id);
      await learn(directory);
      return { data: { id: row.id, sn_id: row.sn_id } };
    },

    deviceEnable: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const { id, enabled } = ctx.fields;
      const row = await visibleDevice(caller, id);
      if (Number(row.enabled) === enabled) return { data: answer(row) };
      if (enabled === 0) {
        notHeldByOther(caller, row);
        notOnMission(row);
        await dropOwnHold(caller, row);
      }
      const updated = await updateDeviceRow(db, row.id, { enabled });
      await audit(db, { kind: enabled === 0 ? 'device_disable' : 'device_enable', ...actorOf(ctx), companyId: row.company_id, target: row.sn_id, detail: { name: row.uav_name } });
      if (enabled === 0) await link.disconnect(row.sn_id);
      await learn(directory);
      return { data: answer(updated) };
    },
  };
}
