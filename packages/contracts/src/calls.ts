import { z } from 'zod';
import { callFunId } from './functions.js';
import { int, intDefault, jsonOf, optionalText, requiredText, text } from './form.js';
import { PASSWORD_ENVELOPE_MAX, PERMANENT_END_TIME } from './constants.js';

/**
 * The call registry (SPEC section 7). Every call the browser makes is declared here once; the server
 * registers one route per entry and the web request layer builds and signs payloads from the same entry,
 * so a call cannot exist on one side only.
 */
export const SERVICES = ['user', 'device', 'zone', 'mt', 'video'] as const;
export type Service = (typeof SERVICES)[number];

/** Default base path of each service; each one can be moved elsewhere by configuration. */
export const DEFAULT_SERVICE_BASES: Readonly<Record<Service, string>> = {
  user: '/api/user',
  device: '/api/device',
  zone: '/api/zone',
  mt: '/api/mt',
  video: '/api/video',
};

/** Which of the two public keys encrypts a call's secret fields. */
export type PublicKeyName = 'password' | 'licence';

/**
 * - `public`: no token needed (sign-in).
 * - `session`: any signed-in user (own account calls).
 * - any other string: the function id the caller must hold (or super_administrator).
 */
export type Access = 'public' | 'session' | string;

export interface CallDef<F extends z.ZodType = z.ZodType> {
  name: string;
  service: Service;
  path: string;
  /** Call-specific fields, as they arrive form-encoded (strings), with coercion and limits. */
  fields: F;
  /** Fields whose values, concatenated in this order, form the pmd value that is signed. */
  pmd: readonly string[];
  /** Sign os_timestamp + token + pmd value, and the server checks the timestamp is fresh. */
  timestamp: boolean;
  /** The pmd value is the concatenation of the named fields (SPEC "joint flag"). */
  joint: boolean;
  /** multipart/form-data instead of application/x-www-form-urlencoded. */
  multipart: boolean;
  /** Sent to the `mt` base instead of the service's own; signs timestamp, token and pmd. */
  separateUrl: boolean;
  /** Fields that carry a password envelope encrypted with this public key. */
  encrypted: readonly string[];
  publicKey: PublicKeyName | null;
  access: Access;
  /** Which issue builds the handler; `null` once the server implements it. Documentation only. */
  summary: string;
}

type Options<F extends z.ZodType> = Partial<Omit<CallDef<F>, 'name' | 'service' | 'path' | 'fields'>> & {
  fields?: F;
};

function call<F extends z.ZodType = z.ZodObject<Record<string, never>>>(
  name: string,
  service: Service,
  path: string,
  opts: Options<F> = {},
): CallDef<F> {
  const separateUrl = opts.separateUrl ?? false;
  return {
    name,
    service,
    path,
    fields: (opts.fields ?? z.object({})) as F,
    pmd: opts.pmd ?? [],
    timestamp: opts.timestamp ?? separateUrl,
    joint: opts.joint ?? false,
    multipart: opts.multipart ?? false,
    separateUrl,
    encrypted: opts.encrypted ?? [],
    publicKey: opts.publicKey ?? null,
    access: opts.access ?? callFunId(path),
    summary: opts.summary ?? '',
  };
}

/** Account: a mainland mobile number or an e-mail address (SPEC section 5). */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
export const isEmail = (account: string): boolean => EMAIL_PATTERN.test(account);
export const isAccount = (account: string): boolean => PHONE_PATTERN.test(account) || EMAIL_PATTERN.test(account);
export const account = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(128)
    .refine(isAccount, { message: 'account' });

/** An RSA-encrypted password envelope (base64); see `password.ts`. */
const passwordEnvelope = () => z.string().min(1).max(PASSWORD_ENVELOPE_MAX);
const seconds = () => int(0, 99_999_999_999);
const page = () => intDefault(0, 0, 1_000_000);
const size = (max = 1000, def = 20) => intDefault(def, 1, max);

export const funListField = () =>
  jsonOf(z.array(z.string().trim().min(1).max(64)).max(1000));

export const calls = {
  // ---------------------------------------------------------------- user service
  login: call('login', 'user', '/user/login', {
    access: 'public',
    fields: z.object({ account: account(), password: passwordEnvelope() }),
    pmd: ['account'],
    joint: true,
    timestamp: true,
    encrypted: ['password'],
    publicKey: 'password',
    summary: 'Sign in with account and encrypted password; answers the user info with its token.',
  }),
  logout: call('logout', 'user', '/user/logout', {
    access: 'session',
    summary: 'Revoke the current token.',
  }),
  userInfo: call('userInfo', 'user', '/user/info', {
    access: 'session',
    summary: 'The signed-in user (token and pmd value empty).',
  }),
  userList: call('userList', 'user', '/user/list', {
    fields: z.object({ search: optionalText(64), page: page(), size: size(200), state: optionalText(4) }),
    pmd: ['page'],
    joint: true,
  }),
  userAdd: call('userAdd', 'user', '/user/add', {
    fields: z.object({
      nick: requiredText(64),
      phone: account(),
      email: optionalText(128),
      password: passwordEnvelope(),
      start_time: seconds(),
      end_time: intDefault(PERMANENT_END_TIME, 0, 99_999_999_999),
      team: optionalText(64),
      notes: optionalText(500),
      in_com_id: optionalText(64),
      fun_json: funListField(),
    }),
    pmd: ['phone', 'nick'],
    joint: true,
    timestamp: true,
    encrypted: ['password'],
    publicKey: 'password',
  }),
  userEdit: call('userEdit', 'user', '/user/edit', {
    access: 'session',
    fields: z.object({
      u_id: requiredText(64),
      state: int(0, 100),
      start_time: seconds(),
      end_time: seconds(),
      nick: requiredText(64),
      phone: account(),
      email: optionalText(128),
      password: optionalText(1024),
      team: optionalText(64),
      notes: optionalText(500),
      in_com_id: optionalText(64),
      fun_json: funListField(),
    }),
    pmd: ['u_id', 'nick', 'phone', 'start_time', 'end_time'],
    joint: true,
    timestamp: true,
    encrypted: ['password'],
    publicKey: 'password',
    summary:
      'Own account edit for everyone (nick, phone, email, notes); editing others or privileged fields needs user_edit.',
  }),
  userDelete: call('userDelete', 'user', '/user/delete', {
    fields: z.object({ u_id: requiredText(64) }),
    pmd: ['u_id'],
    joint: true,
  }),
  userRecover: call('userRecover', 'user', '/user/recover', {
    fields: z.object({ u_id: requiredText(64) }),
    pmd: ['u_id'],
    joint: true,
  }),
  userPsw: call('userPsw', 'user', '/user/psw', {
    access: 'session',
    fields: z.object({ account: account(), password: passwordEnvelope(), new_psw: passwordEnvelope() }),
    pmd: ['account', 'password', 'new_psw'],
    joint: true,
    encrypted: ['password', 'new_psw'],
    publicKey: 'password',
    summary: 'Change own password; revokes every token of the user.',
  }),
  funAdd: call('funAdd', 'user', '/fun/add', {
    fields: z.object({
      name: requiredText(64),
      name_en: requiredText(64),
      fun_id: requiredText(64),
      description: requiredText(500),
      notes: optionalText(500),
    }),
    pmd: ['fun_id'],
    joint: true,
  }),
  funEdit: call('funEdit', 'user', '/fun/edit', {
    fields: z.object({
      fun_id: requiredText(64),
      name: requiredText(64),
      name_en: requiredText(64),
      description: requiredText(500),
      notes: optionalText(500),
      state: int(10, 20),
    }),
    pmd: ['fun_id'],
    joint: true,
  }),
  funList: call('funList', 'user', '/fun/list', {
    fields: z.object({ search: optionalText(64), state: optionalText(4) }),
  }),

  // ---------------------------------------------------------------- device service
  deviceList: call('deviceList', 'device', '/device/list', {
    fields: z.object({ type: intDefault(0, 0, 1000), search: text(64).optional(), page: page(), size: size(1000, 200) }),
    pmd: ['page', 'type'],
    summary: 'Device list; pmd value is page concatenated with type.',
  }),
  userGetDeviceType: call('userGetDeviceType', 'device', '/device/uav/type', {}),
  deviceAdd: call('deviceAdd', 'device', '/device/add', { timestamp: true }),
  deviceEdit: call('deviceEdit', 'device', '/device/edit', { timestamp: true }),
  deviceConnect: call('deviceConnect', 'device', '/device/connect', {}),
  insRanking: call('insRanking', 'device', '/ins/ranking', {}),
  resultList: call('resultList', 'device', '/result/list', {}),
  resultDeleteOne: call('resultDeleteOne', 'device', '/result/delete/one', {}),
  resultDeleteIds: call('resultDeleteIds', 'device', '/result/delete/ids', {}),
  resultDeleteSort: call('resultDeleteSort', 'device', '/result/delete/sort', {}),
  sortiesList: call('sortiesList', 'device', '/sorties/list', {}),
  sortiesDelete: call('sortiesDelete', 'device', '/sorties/delete', {}),
  fenceList: call('fenceList', 'device', '/fence/list', {}),
  fenceAdd: call('fenceAdd', 'device', '/fence/add', {}),
  fenceEdit: call('fenceEdit', 'device', '/fence/edit', {}),
  fenceOne: call('fenceOne', 'device', '/fence/one', {}),
  missionType: call('missionType', 'device', '/mission/type', {}),
  missionList: call('missionList', 'device', '/mission/list', {}),
  missionAdd: call('missionAdd', 'device', '/mission/add', {}),
  missionEdit: call('missionEdit', 'device', '/mission/edit', {}),
  missionInfo: call('missionInfo', 'device', '/mission/info', {}),
  missionClearBreak: call('missionClearBreak', 'device', '/mission/clearBreak', {}),
  romList: call('romList', 'device', '/rom/list', {}),
  romAdd: call('romAdd', 'device', '/rom/add', { multipart: true, separateUrl: true }),
  romEdit: call('romEdit', 'device', '/rom/edit', {}),
  taskAdd: call('taskAdd', 'device', '/task/add', {}),
  taskEdit: call('taskEdit', 'device', '/task/edit', {}),
  taskList: call('taskList', 'device', '/task/list', {}),
  deviceTypeAdminList: call('deviceTypeAdminList', 'device', '/deviceType/adminList', {}),
  deviceTypeAdd: call('deviceTypeAdd', 'device', '/deviceType/add', {}),
  deviceTypeEdit: call('deviceTypeEdit', 'device', '/deviceType/edit', {}),
  deviceTypeList: call('deviceTypeList', 'device', '/deviceType/list', {}),
  comGetList: call('comGetList', 'device', '/com/getList', {}),
  comGetOne: call('comGetOne', 'device', '/com/getOne', {}),
  comAdd: call('comAdd', 'device', '/com/add', {}),
  comEdit: call('comEdit', 'device', '/com/edit', {}),

  // ---------------------------------------------------------------- map (zone) and video services
  mapDown: call('mapDown', 'zone', '/map/down', {}),
  videoUserList: call('videoUserList', 'video', '/video/user/list', {}),
  videoDeviceTypeList: call('videoDeviceTypeList', 'video', '/deviceType/list', {
    access: callFunId('/video/deviceType/list'),
    summary: 'User explain-type list (the video service twin of /deviceType/list).',
  }),
} as const satisfies Record<string, CallDef>;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallFields<N extends CallName> = z.input<Calls[N]['fields']>;
export type ParsedFields<N extends CallName> = z.output<Calls[N]['fields']>;

export const CALL_LIST: readonly CallDef[] = Object.values(calls);

/** The base a call is sent to: `mt` for separate-URL calls, else its own service. */
export const serviceOf = (def: CallDef): Service => (def.separateUrl ? 'mt' : def.service);

/** Full URL path of a call given the configured bases. */
export function callUrl(def: CallDef, bases: Readonly<Record<Service, string>> = DEFAULT_SERVICE_BASES): string {
  return bases[serviceOf(def)].replace(/\/$/, '') + def.path;
}

/** Common fields the request layer adds to every payload (SPEC section 3). */
export const COMMON_FIELDS = [
  'app_type',
  'app_ids',
  'app_code',
  'app_flavor',
  'os_timestamp',
  'os_language',
  'token',
  'pmd',
] as const;
export type CommonField = (typeof COMMON_FIELDS)[number];
