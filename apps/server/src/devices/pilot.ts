import { Company, ResultCode } from '@nest/contracts';
import { actorOf, audit } from '../audit/api.js';
import { callerOf } from '../calls/caller.js';
import { CallError, type Message } from '../calls/errors.js';
import type { Handlers } from '../calls/types.js';
import { scopeOf } from '../db/scope.js';
import { STATE_NORMAL } from '../db/sql.js';
import type { AppDeps } from '../deps.js';
import { findCompany } from '../users/api.js';
import { inScope } from './directory.js';
import { djiCredentials, djiMqttUrl, isDji, raiseSecretGen } from './dji.js';
import { findDeviceBySn } from './store.js';

const both =
  (zh: string, en: string): Message =>
  (lang) =>
    lang === 'zh' ? zh : en;

/** Refusals of /device/dji/pilot and the platform name Pilot 2 shows, in both console languages. */
const T = {
  // The sn is not repeated: another company's device must answer exactly as a device that does not exist.
  noGateway: both(
    '本公司没有以“大疆上云 API”协议登记这台设备：请先在“设备管理”中登记遥控器（单兵无人机类型，设备 SN 为遥控器序列号）或机场（设备 SN 为机场序列号），并填写无人机序列号',
    "This device is not registered in your company with the DJI Cloud API protocol: add it in Equipment first, a remote controller (type single-soldier drone, device SN = the controller's serial number) or a dock (device SN = the dock's), with its drone's SN",
  ),
  disabled: both('这台设备已停用：请先在“设备管理”中启用', 'This device is disabled: enable it in Equipment first'),
  platform: both('无人机管理平台', 'Drone Management Platform'),
};

/**
 * /device/dji/pilot: the login the Pilot 2 page (web `/nest/pilot`, opened in DJI Pilot 2's Open Platform) hands
 * the JSBridge for the remote controller it runs on. The server keeps no DJI password, so the page asks for new
 * credentials each time it connects: like /device/dji/credentials, the generation is raised (the previous
 * password stops working) and the controller's current connection is closed. A device of another company, a
 * nest-protocol one and an unknown sn get the same answer, so nothing is learnt about other companies. With
 * `dock_sn` (a dock being set up from the controller: Pilot 2 hands it the thing login) the dock's are issued.
 */
export function devicePilotHandlers(deps: AppDeps): Handlers {
  const { db, config } = deps;
  const { directory, link } = deps.live;

  return {
    deviceDjiPilot: async (ctx) => {
      const caller = callerOf(ctx.caller);
      // Pilot 2 passes the thing login on to a dock set up from it: then the login is the dock's.
      const gateway = ctx.fields.dock_sn?.trim() || ctx.fields.rc_sn.trim();
      const row = await findDeviceBySn(db, gateway);
      if (!row || Number(row.state) !== STATE_NORMAL || !isDji(row) || !inScope(scopeOf(caller), row)) {
        throw new CallError(ResultCode.NOT_FOUND_OBJECT, T.noGateway);
      }
      if (Number(row.enabled) !== 1) throw new CallError(ResultCode.DEVICE_DISABLED, T.disabled);
      const updated = await raiseSecretGen(db, row.id);
      await audit(db, { kind: 'device_credentials', ...actorOf(ctx), companyId: row.company_id, target: row.sn_id, detail: { name: row.uav_name } });
      await link.disconnect(row.sn_id);
      await directory.changed();
      const company = await findCompany(db, row.company_id);
      const workspaceName = company ? (Company.has(company.code) ? Company.label(company.code, ctx.lang) : company.name) : '';
      return {
        data: {
          ...djiCredentials(deps.live.secrets.deviceKeyHex, updated, djiMqttUrl(config, deps.live.brokerUrl)),
          app_id: config.dji.appId,
          app_key: config.dji.appKey,
          app_license: config.dji.appLicense,
          workspace_id: row.company_id,
          workspace_name: workspaceName,
          platform_name: T.platform(ctx.lang),
          device_name: row.airport_name || row.uav_name,
        },
      };
    },
  };
}
