import { randomBytes } from 'node:crypto';
import { DEVICE_TO_SERVER, DeviceProtocol, RecordState, SERVER_CLIENT_ID_PREFIX, SERVER_TO_DEVICE, TOPIC_ROOT, topicOf } from '@nest/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { DJI_TOPIC_FILTERS, djiPublishTopics, djiSubscribeTopics } from '../broker/dji.js';
import type { DeviceRow } from '../db/schema.js';
import type { BrokerAccess, LinkLogger } from './adapter.js';
import { mosquittoHash, SERVER_TOPIC_ROOT } from './mosquitto.js';

/**
 * An external Mosquitto's accounts, kept by the server through Mosquitto's dynamic-security plugin
 * (mosquitto.org/documentation/dynamic-security, shipped with Mosquitto 2.0 and Debian's package): one
 * client per registered enabled device (user name = sn, password = its current one: devicePassword, or
 * djiPassword of its generation for a DJI gateway) with its own role,
 * and the server's own user with the server role, which may also send the plugin its commands.
 *
 * `cli.ts mosquitto-files` writes the plugin's first configuration (dynsecConfig); from then on the
 * broker owns that file and the server changes it with commands on $CONTROL/dynamic-security/v1:
 * disabling or deleting a client also closes its connection, so a device disabled in the console is cut
 * off at once and cannot log in again until enabled.
 */

export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
export const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;
export const SERVER_ROLE = 'nest-server';
/**
 * Each device has its own role with its own topics: the plugin of Mosquitto 2.0 matches ACL topics
 * literally (no %u substitution as in an ACL file).
 */
export const DEVICE_ROLE_PREFIX = 'nest-device-';
export const deviceRole = (sn: string): string => `${DEVICE_ROLE_PREFIX}${sn}`;

type Acl = { acltype: string; topic: string; allow: boolean; priority?: number };

/**
 * The server role: every device-link topic (the nest protocol's and DJI Cloud API's), its own internal
 * notices and the plugin's control topics.
 */
function serverAcls(): Acl[] {
  const acls: Acl[] = [];
  for (const topic of [`${TOPIC_ROOT}/#`, ...DJI_TOPIC_FILTERS, `${SERVER_TOPIC_ROOT}/#`, `${DYNSEC_TOPIC}/#`]) {
    for (const acltype of ['publishClientSend', 'publishClientReceive', 'subscribePattern', 'unsubscribePattern']) acls.push({ acltype, topic, allow: true });
  }
  return acls;
}

/**
 * A device's role: publish on its own device -> server topics, subscribe to and receive its own
 * server -> device topics. Nothing else.
 */
export function deviceAcls(sn: string): Acl[] {
  return [
    ...DEVICE_TO_SERVER.map((c) => ({ acltype: 'publishClientSend', topic: topicOf(sn, c), allow: true })),
    ...SERVER_TO_DEVICE.flatMap((c) => [
      { acltype: 'subscribePattern', topic: topicOf(sn, c), allow: true },
      { acltype: 'publishClientReceive', topic: topicOf(sn, c), allow: true },
    ]),
  ];
}

/**
 * A DJI gateway's role: publish on its own DJI topics and its registered drone's osd/state, subscribe to
 * and receive its own cloud -> device topics (broker/dji.ts). Nothing else.
 */
export function djiAcls(sn: string, droneSn: string): Acl[] {
  return [
    ...djiPublishTopics(sn, droneSn).map((topic) => ({ acltype: 'publishClientSend', topic, allow: true })),
    ...djiSubscribeTopics(sn).flatMap((topic) => [
      { acltype: 'subscribePattern', topic, allow: true },
      { acltype: 'publishClientReceive', topic, allow: true },
    ]),
  ];
}

/** What decides a device's account at the broker: its protocol, password generation and (DJI) drone. */
export type AccessRow = Pick<DeviceRow, 'sn_id' | 'enabled' | 'state' | 'protocol' | 'secret_gen' | 'uav_sn'>;

/** The role ACLs of a registered device, per protocol. */
export const aclsOf = (row: Pick<AccessRow, 'sn_id' | 'protocol' | 'uav_sn'>): Acl[] =>
  Number(row.protocol) === DeviceProtocol.DJI ? djiAcls(row.sn_id, row.uav_sn) : deviceAcls(row.sn_id);

/** One string per account state: a change means a new password or other topics. */
const accountKey = (row: AccessRow): string => `${Number(row.protocol)}|${Number(row.secret_gen)}|${row.uav_sn}`;

/** A client entry of the plugin's configuration file, with the password hashed the way the plugin does. */
function clientEntry(username: string, password: string, role: string): object {
  const { salt, hash, iterations } = mosquittoHash(password);
  return { username, password: hash, salt, iterations, roles: [{ rolename: role }] };
}

/**
 * The plugin's initial configuration (dynamic-security.json): the two roles, the server user and every
 * registered enabled device. Nothing is allowed by default.
 */
export function dynsecConfig(
  server: { user: string; password: string },
  devices: readonly { user: string; password: string; acls?: readonly Acl[] }[],
): string {
  return `${JSON.stringify(
    {
      defaultACLAccess: { publishClientSend: false, publishClientReceive: false, subscribe: false, unsubscribe: true },
      clients: [clientEntry(server.user, server.password, SERVER_ROLE), ...devices.map((d) => clientEntry(d.user, d.password, deviceRole(d.user)))],
      groups: [],
      roles: [{ rolename: SERVER_ROLE, acls: serverAcls() }, ...devices.map((d) => ({ rolename: deviceRole(d.user), acls: d.acls ?? deviceAcls(d.user) }))],
    },
    null,
    2,
  )}\n`;
}

/** What the access needs of the registry (the DeviceDirectory). */
export interface AccessDevices {
  get(sn: string): AccessRow | undefined;
  all(): Iterable<AccessRow>;
  onChange(listener: (changed: string[]) => void): () => void;
  /** Reads the registry again (another instance may have registered devices since the last read). */
  reload(): Promise<void>;
}

export interface DynsecOptions {
  url: string;
  username: string;
  password: string;
  devices: AccessDevices;
  /** The password a registered device logs in with now (credentials.ts currentPassword). */
  passwordOf(row: AccessRow): string;
  log: LinkLogger;
  /** How long a command may wait for the broker's answer (default 5 s). */
  timeoutMs?: number;
}

interface Command {
  command: string;
  [key: string]: unknown;
}

interface Response {
  command: string;
  error?: string;
  data?: unknown;
  correlationData?: string;
}

/** Commands per control message: the plugin answers them in one response. */
const BATCH = 50;
/** Clients per listClients page. */
const PAGE = 500;

/**
 * Deleted devices, in steps of their own: disabled (which closes their connections), then their clients
 * deleted, then their roles. Mosquitto 2.0.11 was seen to stop answering when one message closed a client
 * and then changed what it held (its account, a role it held), so no step touches a client another step of
 * the same message has closed.
 */
const removalSteps = (sns: readonly string[]): Command[][] => [
  sns.map((sn) => ({ command: 'disableClient', username: sn })),
  sns.map((sn) => ({ command: 'deleteClient', username: sn })),
  sns.map((sn) => ({ command: 'deleteRole', rolename: deviceRole(sn) })),
];

const admitted = (row: Pick<DeviceRow, 'enabled' | 'state'> | undefined): boolean =>
  row !== undefined && Number(row.enabled) === 1 && Number(row.state) === RecordState.NORMAL;

/**
 * The server's side of the dynamic-security plugin: its own MQTT connection (the server user), which on
 * every (re)connect brings the broker's device clients in line with the registry (creates the missing,
 * enables the enabled, disables the disabled, deletes the deleted), and again for every device the
 * registry reports changed. A broker without the plugin (password file and ACL, the older configuration)
 * never answers: the access says so once in the log and does nothing, disconnect() included.
 */
export class MosquittoDynsec implements BrokerAccess {
  private client: MqttClient | null = null;
  private readonly waiting = new Map<string, (responses: Response[]) => void>();
  private unsubscribe: (() => void) | null = null;
  /** null until the broker answered or did not; false: no plugin behind this broker. */
  private available: boolean | null = null;
  private readonly timeoutMs: number;
  /** Per sn, the account state (accountKey) last given to the broker, so a change is noticed. */
  private readonly given = new Map<string, string>();

  constructor(private readonly opts: DynsecOptions) {
    this.timeoutMs = opts.timeoutMs ?? 5000;
  }

  start(): void {
    const client = mqtt.connect(this.opts.url, {
      clientId: `${SERVER_CLIENT_ID_PREFIX}access-${randomBytes(6).toString('hex')}`,
      username: this.opts.username,
      password: this.opts.password,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
    });
    this.client = client;
    client.on('connect', () => {
      client.subscribe(DYNSEC_RESPONSE_TOPIC, { qos: 1 }, (err) => {
        // stop() closing the connection fails a subscribe in flight: that says nothing of the plugin.
        if (this.client !== client) return;
        if (err) return this.unavailable();
        void this.syncAll().catch((e: unknown) => this.opts.log.warn({ err: String(e) }, 'broker access: sync failed'));
      });
    });
    client.on('error', () => undefined);
    client.on('message', (topic, payload) => {
      if (topic !== DYNSEC_RESPONSE_TOPIC) return;
      let responses: Response[];
      try {
        responses = (JSON.parse(payload.toString('utf8')) as { responses?: Response[] }).responses ?? [];
      } catch {
        return;
      }
      // Responses to other instances' commands come here too: only ours carry a waiting id.
      const id = responses[0]?.correlationData;
      const done = id ? this.waiting.get(id) : undefined;
      if (done) done(responses);
    });
    this.unsubscribe = this.opts.devices.onChange((changed) => {
      if (this.available) void this.follow(changed).catch((e: unknown) => this.opts.log.warn({ err: String(e) }, 'broker access: update failed'));
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const done of this.waiting.values()) done([]);
    this.waiting.clear();
    const client = this.client;
    this.client = null;
    if (client) await new Promise<void>((resolve) => client.end(true, {}, () => resolve()));
  }

  /** Disables the device's client, which closes its connections; follow() enables it again once the registry does. */
  async disconnect(sn: string): Promise<void> {
    if (!this.available) return;
    await this.send([{ command: 'disableClient', username: sn }]);
  }

  /** Sends commands in batches; answers the plugin's responses in order (empty ones on timeout or stop). */
  private async send(commands: readonly Command[]): Promise<Response[]> {
    const out: Response[] = [];
    for (let i = 0; i < commands.length; i += BATCH) out.push(...(await this.sendBatch(commands.slice(i, i + BATCH))));
    return out;
  }

  private sendBatch(commands: readonly Command[]): Promise<Response[]> {
    const client = this.client;
    if (!client?.connected) return Promise.resolve([]);
    const id = randomBytes(8).toString('hex');
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve([]);
      }, this.timeoutMs);
      this.waiting.set(id, (responses) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(responses);
      });
      client.publish(DYNSEC_TOPIC, JSON.stringify({ commands: commands.map((c) => ({ ...c, correlationData: id })) }), { qos: 1 });
    });
  }

  /** The broker's clients with the device role: user name -> disabled. Null when the broker does not answer. */
  private async deviceClients(): Promise<Map<string, boolean> | null> {
    const found = new Map<string, boolean>();
    for (let offset = 0; ; offset += PAGE) {
      const [r] = await this.send([{ command: 'listClients', verbose: true, count: PAGE, offset }]);
      // No answer, or refused (the server user without the plugin's rights): nothing can be kept in line.
      if (!r || r.error) return offset === 0 ? null : found;
      const clients = (r.data as { clients?: { username: string; disabled?: boolean; roles?: { rolename: string }[] }[] }).clients ?? [];
      for (const c of clients) if (c.roles?.some((role) => role.rolename === deviceRole(c.username))) found.set(c.username, c.disabled === true);
      if (clients.length < PAGE) return found;
    }
  }

  /** No plugin behind this broker (or the server user may not use it): said once, then nothing is done. */
  private unavailable(): void {
    if (this.available !== false) {
      this.opts.log.warn({}, 'broker access: no dynamic-security plugin answers; a disabled device keeps its connection until it reconnects');
    }
    this.available = false;
  }

  /**
   * On (re)connect: the broker's device clients made to match the registry. Clients of devices the
   * registry does not have are deleted only when it was just read: a stale copy could lack a device
   * another instance has registered meanwhile.
   */
  private async syncAll(): Promise<void> {
    const clients = await this.deviceClients();
    if (!clients) return this.unavailable();
    const fresh = await this.opts.devices.reload().then(
      () => true,
      () => false,
    );
    this.available = true;
    const commands: Command[] = [];
    const registered = new Set<string>();
    for (const row of this.opts.devices.all()) {
      registered.add(row.sn_id);
      const admit = admitted(row);
      // A refused device without a client at the broker is refused already.
      if (admit || clients.has(row.sn_id)) commands.push(...this.commandsFor(row, admit, clients.get(row.sn_id)));
      // What the broker has of a DJI account is not known (the plugin lists no passwords): its password is
      // given again. Its role stays (deleting a role a connected client holds stops Mosquitto 2.0.11); a
      // drone changed while no server ran applies once the device is next changed.
      if (admit && clients.has(row.sn_id) && Number(row.protocol) === DeviceProtocol.DJI) {
        commands.push({ command: 'setClientPassword', username: row.sn_id, password: this.opts.passwordOf(row) });
      }
      this.given.set(row.sn_id, accountKey(row));
    }
    const removed = fresh ? [...clients.keys()].filter((sn) => !registered.has(sn)) : [];
    await this.apply(commands);
    await this.remove(removed);
    this.opts.log.info({ devices: registered.size, changes: commands.length + removed.length }, 'broker access: device clients in line with the registry');
  }

  /** Devices the registry reports changed (added, edited, enabled, disabled, deleted). */
  private async follow(changed: readonly string[]): Promise<void> {
    const commands: Command[] = [];
    const kicks: string[] = [];
    const removed: string[] = [];
    for (const sn of changed) {
      const row = this.opts.devices.get(sn);
      if (!row) {
        this.given.delete(sn);
        removed.push(sn);
        continue;
      }
      const before = this.given.get(sn);
      const admit = admitted(row);
      // A new password or other topics for a client the broker has: changed in place, and its connection
      // cut (re-issued credentials make the previous ones useless at once; new topics apply from its next login).
      if (before !== undefined && before !== accountKey(row)) {
        commands.push(...this.accountUpdate(row, before));
        kicks.push(sn);
      }
      commands.push(...this.commandsFor(row, admit, undefined));
      this.given.set(sn, accountKey(row));
    }
    await this.apply(commands);
    await this.remove(removed);
    // The kicks (disabling closes a client's connections) in a message of their own after the account
    // changes, then enabled again: Mosquitto 2.0.11 was seen to stop answering when one message kicked a
    // client and then changed its account, or deleted a role a client just kicked held.
    if (kicks.length > 0) {
      await this.apply(kicks.map((sn) => ({ command: 'disableClient', username: sn })));
      await this.apply(kicks.filter((sn) => admitted(this.opts.devices.get(sn))).map((sn) => ({ command: 'enableClient', username: sn })));
    }
  }

  /**
   * What brings one device's client in line: `disabled` is what the broker has (true/false), or undefined
   * when absent or not known (creating an existing client fails harmlessly, enabling is idempotent).
   */
  private commandsFor(row: AccessRow, admit: boolean, disabled: boolean | undefined): Command[] {
    const sn = row.sn_id;
    if (!admit) return disabled === false || disabled === undefined ? [{ command: 'disableClient', username: sn }] : [];
    if (disabled === false) return [];
    if (disabled === true) return [{ command: 'enableClient', username: sn }];
    return [
      { command: 'createRole', rolename: deviceRole(sn), acls: aclsOf(row) },
      { command: 'createClient', username: sn, password: this.opts.passwordOf(row), roles: [{ rolename: deviceRole(sn) }] },
      { command: 'enableClient', username: sn },
    ];
  }

  /**
   * An existing client given its current password, and its role's ACLs changed in place from those of
   * the account state `before` (accountKey) to its current ones. (Deleting and recreating the role would
   * be simpler, but Mosquitto 2.0.11 was seen to stop answering when a role a client held was deleted.)
   */
  private accountUpdate(row: AccessRow, before: string): Command[] {
    const sn = row.sn_id;
    const [protocol, , uavSn] = before.split('|');
    const key = (a: Acl) => `${a.acltype} ${a.topic}`;
    const old = aclsOf({ sn_id: sn, protocol: Number(protocol), uav_sn: uavSn ?? '' });
    const now = aclsOf(row);
    const oldKeys = new Set(old.map(key));
    const nowKeys = new Set(now.map(key));
    return [
      { command: 'setClientPassword', username: sn, password: this.opts.passwordOf(row) },
      ...old.filter((a) => !nowKeys.has(key(a))).map((a) => ({ command: 'removeRoleACL', rolename: deviceRole(sn), acltype: a.acltype, topic: a.topic })),
      ...now.filter((a) => !oldKeys.has(key(a))).map((a) => ({ command: 'addRoleACL', rolename: deviceRole(sn), ...a })),
    ];
  }

  /**
   * Deleted devices taken off the broker (removalSteps), each step sent once the broker answered the one
   * before. A step left unanswered stops the removal: the next sync (on reconnect) deletes the clients the
   * registry no longer has.
   */
  private async remove(sns: readonly string[]): Promise<void> {
    if (sns.length === 0) return;
    for (const step of removalSteps(sns)) {
      if (!(await this.apply(step))) {
        this.opts.log.warn({ devices: sns }, 'broker access: the broker did not answer a removal step; the next sync completes it');
        return;
      }
    }
  }

  /** Sends commands and logs the unexpected refusals; answers whether the broker answered every command. */
  private async apply(commands: readonly Command[]): Promise<boolean> {
    if (commands.length === 0) return true;
    const responses = await this.send(commands);
    for (const r of responses) {
      // Expected: creating a client that exists, disabling or deleting one that does not.
      if (r.error && !/already exists|not found/i.test(r.error)) this.opts.log.warn({ command: r.command, error: r.error }, 'broker access: command refused');
    }
    return responses.length === commands.length;
  }
}

/**
 * One device's account brought in line at the broker right away by a process other than the server (the
 * CLI registering a DJI dock or issuing its credentials while the server runs): its role built again with
 * its current topics, its client created or given its current password, and enabled; `kick` first closes
 * the connections made under the old account. Commands that find things as they should be fail harmlessly.
 * Answers false when the broker does not answer (unreachable, no plugin): the running server's next
 * registry read (link/dynsec.ts MosquittoDynsec) does it then.
 */
export async function pushDeviceAccount(o: {
  url: string;
  username: string;
  password: string;
  row: AccessRow;
  devicePassword: string;
  kick: boolean;
  timeoutMs?: number;
}): Promise<boolean> {
  const sn = o.row.sn_id;
  const role = deviceRole(sn);
  const enable: Command[] = admitted(o.row) ? [{ command: 'enableClient', username: sn }] : [];
  // A new device gets its role and client; an existing one its new password (the CLI does not change a
  // device's topics: the running server's registry read does, link/dynsec.ts MosquittoDynsec).
  const account: Command[] = [
    { command: 'createRole', rolename: role, acls: aclsOf(o.row) },
    { command: 'createClient', username: sn, password: o.devicePassword, roles: [{ rolename: role }] },
    { command: 'setClientPassword', username: sn, password: o.devicePassword },
  ];
  // The kick (disabling closes its connections) in a message of its own, after the account change, then
  // enabled again: Mosquitto 2.0.11 was seen to stop answering when one message kicked a client and then
  // changed its account, or deleted a role a client just kicked held.
  const steps = o.kick ? [account, [{ command: 'disableClient', username: sn }], enable] : [[...account, ...enable]];
  for (const step of steps) {
    if (step.length > 0 && !(await sendOnce(o.url, o.username, o.password, step, o.timeoutMs ?? 10_000))) return false;
  }
  return true;
}

/** One connection that sends `commands` to the plugin: true once it answered. */
async function sendOnce(url: string, username: string, password: string, commands: readonly Command[], timeoutMs: number): Promise<boolean> {
  let client: MqttClient;
  try {
    const options = {
      clientId: `${SERVER_CLIENT_ID_PREFIX}cli-${randomBytes(6).toString('hex')}`,
      username,
      password,
      protocolVersion: 4 as const,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: timeoutMs,
    };
    // allowRetries false: a connection that closes before its CONNACK (a connect timeout among others)
    // rejects instead of waiting for a retry that reconnectPeriod 0 never makes.
    client = await mqtt.connectAsync(url, options, false);
  } catch {
    return false;
  }
  // One deadline for everything after the connect: a connection lost meanwhile leaves a QoS 1
  // subscribe or publish waiting for a reconnect that never comes.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const id = randomBytes(8).toString('hex');
    const answered = new Promise<boolean>((resolve) => {
      client.on('message', (topic, payload) => {
        if (topic !== DYNSEC_RESPONSE_TOPIC) return;
        try {
          const responses = (JSON.parse(payload.toString('utf8')) as { responses?: Response[] }).responses ?? [];
          if (responses[0]?.correlationData !== id) return;
        } catch {
          return;
        }
        resolve(true);
      });
    });
    const work = async () => {
      await client.subscribeAsync(DYNSEC_RESPONSE_TOPIC, { qos: 1 });
      await client.publishAsync(DYNSEC_TOPIC, JSON.stringify({ commands: commands.map((c) => ({ ...c, correlationData: id })) }), { qos: 1 });
      return answered;
    };
    return await Promise.race([work(), deadline]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    await client.endAsync(true).catch(() => undefined);
  }
}
