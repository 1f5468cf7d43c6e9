import { ProcessControlCommand } from './enums.js';
import { ControlCmdType } from './flight.js';
import { DEVICE_CONTROL_FUNCTION } from './functions.js';
import { PushMsgId } from './push.js';

/**
 * Who may send or receive each push message. The server's push hub and flight runtime check the functions
 * named here (ALARM_PUSH_FUNCTION, DEVICE_CONTROL_FUNCTION), docs/calls.md is generated from this table and
 * the server's push authorization matrix test iterates it, so rule, reference and test cannot drift apart.
 *
 * Every frame in either direction also needs a live session (not signed out, not expired, user neither
 * deleted nor disabled, inside its validity period) that holds DEVICE_PUSH_FUNCTION: the socket is ended
 * (46010, then closed) the moment that stops being true.
 *
 * Scope says which objects a frame may concern:
 * - `session`: nothing beyond the socket's own session;
 * - `view`: a device of the user's company (super_administrator: every company) or shared with the user
 *   through a collaboration group;
 * - `control`: a device of the user's company only (shared devices are watched, never controlled), with
 *   the device's control connection held by this user (/device/connect, status 3 by them);
 * - `company`: the user's company (super_administrator: every company);
 * - `user`: the user's own jobs.
 */
export type PushScope = 'session' | 'view' | 'control' | 'company' | 'user';

export interface PushAccess {
  msgId: PushMsgId;
  direction: 'in' | 'out';
  /** The function the user must hold besides DEVICE_PUSH_FUNCTION (null: that one is enough). */
  fun: string | null;
  scope: PushScope;
  summary: string;
}

/** The function a user needs to get push 370 ALARM (the one /alarm/list asks for). */
export const ALARM_PUSH_FUNCTION = 'alarm_list';

const entry = (msgId: PushMsgId, direction: PushAccess['direction'], fun: string | null, scope: PushScope, summary: string): PushAccess => ({
  msgId,
  direction,
  fun,
  scope,
  summary,
});

export const PUSH_ACCESS: readonly PushAccess[] = [
  entry(PushMsgId.USER_VERIFY, 'in', null, 'session', 'User verification: the token of a live session, the licence, and DEVICE_PUSH_FUNCTION. Nothing else is answered before it succeeds; a socket that has not verified within PUSH_VERIFY_LIMIT_MS is closed.'),
  entry(PushMsgId.HEARTBEAT, 'in', null, 'session', 'Heartbeat: re-reads the session, functions and collaboration groups; 46010 and close when the session ended.'),
  entry(PushMsgId.EQUIPMENT_VERIFY, 'in', null, 'view', 'Watch a device: its 300, 301, 320, 330, 350, 360 and 390 frames follow.'),
  entry(PushMsgId.FLEET_SUBSCRIBE, 'in', null, 'view', 'Fleet map updates (310) of every device the user may see.'),
  entry(PushMsgId.CONTROL, 'in', DEVICE_CONTROL_FUNCTION, 'control', 'Flight control command (every cmd_type, below).'),
  entry(PushMsgId.PROCESS_CONTROL, 'in', DEVICE_CONTROL_FUNCTION, 'control', 'Pause, continue or interrupt the running process (every control_cmd, below).'),
  entry(PushMsgId.DEVICE_TELEMETRY, 'out', null, 'view', 'Telemetry of a watched device.'),
  entry(PushMsgId.DEVICE_STATUS, 'out', null, 'view', 'Online status and holder of a watched device.'),
  entry(PushMsgId.FLEET_UPDATE, 'out', null, 'view', 'Positions and states of the visible devices: all of them in the first batch after 210, then once a period those whose entry changed.'),
  entry(PushMsgId.FLOW_PROGRESS, 'out', null, 'view', 'Nest flow progress of a watched device.'),
  entry(PushMsgId.MISSION_PROGRESS, 'out', null, 'view', 'Mission progress of a watched device.'),
  entry(PushMsgId.RESULT_ADDED, 'out', null, 'view', 'A result of a watched device arrived.'),
  entry(PushMsgId.SORTIE, 'out', null, 'view', 'A sortie of a watched device began or ended.'),
  entry(PushMsgId.ALARM, 'out', ALARM_PUSH_FUNCTION, 'company', 'An alarm of the company was raised, cleared or processed.'),
  entry(PushMsgId.DATA_CHANGED, 'out', null, 'company', 'The company\'s sorties, results, alarms or tasks changed.'),
  entry(PushMsgId.DEVICE_OP, 'out', null, 'view', 'A maintenance operation of a watched device (and of the user who started it).'),
  entry(PushMsgId.MAP_DOWNLOAD, 'out', null, 'user', 'Progress of the user\'s offline map download.'),
];

/** The access rule of a push message, or undefined for an id the server does not know. */
export const pushAccessOf = (msgId: number): PushAccess | undefined => PUSH_ACCESS.find((a) => a.msgId === msgId);

/**
 * What a flight command (401 of any cmd_type, 473 of any control_cmd) needs, in the order the server checks
 * it; each failing step has its own answer (contracts CommandReason, or the result code named).
 */
export const CONTROL_REQUIREMENTS: readonly { step: string; refusal: string }[] = [
  { step: 'a verified socket of a live session', refusal: 'LOGIN_EXPIRED (40263); a session that ended closes the socket with 46010' },
  { step: 'the device exists and belongs to the user\'s company (super_administrator: any)', refusal: 'NOT_FOUND_OBJECT (40018), or CommandReason 23 when the device is shared with the user through a collaboration group' },
  { step: `the function ${DEVICE_CONTROL_FUNCTION} (or super_administrator)`, refusal: 'CommandReason 22' },
  { step: 'the device\'s control connection is held by this user', refusal: 'CommandReason 21 (nobody holds it) or 2 (someone else does)' },
  { step: 'the command\'s own checks (enabled, online, in the air, pre-flight checks for takeoff and routes)', refusal: 'the CommandReason of the first failing check' },
];

/** Every 401 cmd_type and 473 control_cmd with its label: all need CONTROL_REQUIREMENTS. */
export const controlCommandsForDocs = (): { msgId: PushMsgId; value: number; label: string }[] => [
  ...ControlCmdType.entries.map((e) => ({ msgId: PushMsgId.CONTROL, value: e.value, label: e.label.en })),
  ...ProcessControlCommand.entries.map((e) => ({ msgId: PushMsgId.PROCESS_CONTROL, value: e.value, label: e.label.en })),
];
