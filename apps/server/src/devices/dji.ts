import { DeviceProtocol, type DjiCredentials } from '@nest/contracts';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config.js';
import { nowSeconds } from '../db/index.js';
import type { DB, DeviceRow } from '../db/schema.js';
import { djiPassword } from '../link/credentials.js';
import { findDeviceById } from './store.js';

/**
 * Broker credentials of DJI Cloud API gateways (a DJI Dock 2 / Dock 3 with its drone, or DJI Pilot 2 as
 * gateway): user name = the gateway sn, password = djiPassword(device key, sn, generation). The server
 * stores only the generation (devices.secret_gen); a password is shown once, when the device is added or
 * its credentials are issued again, which raises the generation and so makes the previous one useless.
 * Used by /device/add, /device/dji/credentials and the CLI (dji-dock-add, dji-dock-credentials).
 */

export const isDji = (row: Pick<DeviceRow, 'protocol'>): boolean => Number(row.protocol) === DeviceProtocol.DJI;

/**
 * The broker address given to DJI devices: DEVICE_MQTT_URL when set (an address the dock can reach),
 * else where the server's own link connects (the embedded broker on loopback, or MQTT_URL).
 */
export const djiMqttUrl = (config: Pick<Config, 'deviceMqttUrl'>, brokerUrl: string): string => config.deviceMqttUrl ?? brokerUrl;

/** The credentials of a DJI device at its current generation. */
export const djiCredentials = (deviceKeyHex: string, row: Pick<DeviceRow, 'sn_id' | 'secret_gen'>, mqttUrl: string): DjiCredentials => ({
  mqtt_url: mqttUrl,
  username: row.sn_id,
  password: djiPassword(deviceKeyHex, row.sn_id, Number(row.secret_gen)),
});

/**
 * Raises the password generation of a device (one statement, so two issuers at once get two different
 * generations) and answers the stored row.
 */
export async function raiseSecretGen(db: Kysely<DB>, id: string): Promise<DeviceRow> {
  await db
    .updateTable('devices')
    .set({ secret_gen: sql<number>`secret_gen + 1`, updated_at: nowSeconds() })
    .where('id', '=', id)
    .execute();
  const row = await findDeviceById(db, id);
  if (!row) throw new Error(`device ${id} vanished while its credentials were issued`);
  return row;
}
