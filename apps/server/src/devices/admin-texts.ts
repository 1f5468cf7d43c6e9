import { textsOf, type Lang } from '@nest/contracts';
import type { Message } from '../calls/errors.js';

/** Refusals of the equipment calls (/device/add, edit, delete, enable), in both console languages. */
const both =
  (zh: string, en: string): Message =>
  (lang: Lang) =>
    lang === 'zh' ? zh : en;

export const DEVICE_ADMIN_TEXTS = {
  snPattern: (field: string): Message =>
    both(`${field} 只能包含字母、数字、短横线和下划线（最多 64 个字符）`, `${field} may only contain letters, digits, - and _ (at most 64 characters)`),
  snTaken: (sn: string): Message => both(`设备序列号 ${sn} 已被登记`, `The serial number ${sn} is already registered`),
  snFixed: both('设备序列号不能修改：它是设备在链路上的身份。请删除后重新登记', "The serial number cannot change: it is the device's identity on the link. Delete the device and register it again"),
  nestNeedsName: both('机场类设备必须填写机场名称', 'A nest needs an airport name'),
  nestNeedsPoint: both('机场类设备必须在地图上选择机场坐标', 'A nest needs an airport coordinate picked on the map'),
  aloneNoNest: both(
    '单兵无人机没有机场：机场名称、备降点、信标参数和方位角须留空',
    'A single-soldier drone has no nest: leave the airport name, alternate landing point, beacon and azimuth empty',
  ),
  aloneNoNestLink: both('单兵无人机没有机场端链路，链路类型不能为 1', 'A single-soldier drone has no nest-side link: the link type cannot be 1'),
  noCompany: both('公司不存在', 'The company does not exist'),
  otherCompany: both('只有超级管理员可以把设备登记到其他公司', 'Only a super administrator may assign a device to another company'),
  noDevice: both('设备不存在或无权管理', 'The device does not exist or is not yours'),
  busy: (nick: string): Message =>
    both(`设备正被 ${textsOf(nick).zh} 连接控制，不能修改、停用或删除`, `${textsOf(nick).en} is connected to the device: it cannot be changed, disabled or deleted now`),
  disabled: both('设备已停用：请先启用再修改或删除', 'The device is disabled: enable it before changing or deleting it'),
  notDji: both(
    '该设备使用机场协议，没有大疆上云接入凭据：先把设备的接入协议改为“大疆上云 API”',
    'This device speaks the nest protocol and has no DJI Cloud API credentials: set its protocol to DJI Cloud API first',
  ),
  onMission: both('设备正在执行任务（无人机在空中或流程进行中），不能删除或停用', 'The device is on a mission (drone in the air or a process running): it cannot be deleted or disabled'),
} as const;
