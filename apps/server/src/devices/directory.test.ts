import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, tempDir, testConfig, type TestDatabase } from '../../test/helpers.js';
import { openDatabase, type Database } from '../db/index.js';
import { migrateToLatest } from '../db/migrate.js';
import { ADMIN_COMPANY, seedCompanies } from '../db/seed.js';
import { STATE_DELETED } from '../db/sql.js';
import { DeviceDirectory } from './directory.js';
import { createDevice, findDeviceBySn, updateDeviceRow } from './store.js';

let dir: string;
let database: TestDatabase;
let db: Database;

/** More devices than two of the directory's read pages. */
const COUNT = 2 * DeviceDirectory.READ_PAGE + 123;
const sn = (i: number) => `DIR-${String(i).padStart(5, '0')}`;

beforeAll(async () => {
  dir = await tempDir();
  database = await createTestDatabase();
  db = openDatabase(testConfig(dir, database.url)).db;
  await migrateToLatest(db);
  await seedCompanies(db);
  for (let i = 0; i < COUNT; i++) await createDevice(db, { type: 'stable', sn_id: sn(i), company_id: ADMIN_COMPANY, airport_name: `Nest ${i}` });
}, 120_000);
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('the device directory', () => {
  it('reads every device in pages, letting the event loop run between them', async () => {
    const directory = new DeviceDirectory(db);
    let turns = 0;
    let done = false;
    // Counts the event-loop turns that run while the reload is under way.
    const tick = () => {
      if (done) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await directory.reload();
    done = true;
    expect([...directory.all()].map((r) => r.sn_id).sort()).toEqual(Array.from({ length: COUNT }, (_, i) => sn(i)));
    // One turn at least between each two of the three pages.
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('keeps the object of an unchanged device and its generation when nothing changed; tells who was added, changed or removed', async () => {
    const directory = new DeviceDirectory(db);
    const told: string[][] = [];
    directory.onChange((changed) => told.push([...changed].sort()));
    await directory.reload();
    const generation = directory.generation;
    const before = new Map([...directory.all()].map((r) => [r.sn_id, r]));
    expect(before.size).toBe(COUNT);
    told.length = 0;

    // Nothing changed: the same objects, the same generation, nobody told.
    await directory.reload();
    expect(directory.generation).toBe(generation);
    for (const row of directory.all()) expect(row).toBe(before.get(row.sn_id));
    expect(told).toEqual([]);

    // One device renamed, one added, one deleted.
    const renamed = (await findDeviceBySn(db, sn(7)))!;
    await updateDeviceRow(db, renamed.id, { airport_name: 'Renamed 7' });
    await createDevice(db, { type: 'stable', sn_id: 'DIR-NEW', company_id: ADMIN_COMPANY });
    const deleted = (await findDeviceBySn(db, sn(COUNT - 1)))!;
    await updateDeviceRow(db, deleted.id, { state: STATE_DELETED });
    await directory.reload();
    expect(directory.generation).toBe(generation + 1);
    expect(told).toEqual([[sn(7), sn(COUNT - 1), 'DIR-NEW'].sort()]);
    expect(directory.get(sn(7))?.airport_name).toBe('Renamed 7');
    expect(directory.get(sn(7))).not.toBe(before.get(sn(7)));
    expect(directory.get(sn(COUNT - 1))).toBeUndefined();
    expect(directory.get('DIR-NEW')?.sn_id).toBe('DIR-NEW');
    // Every other device keeps its object.
    for (const row of directory.all()) if (row.sn_id !== sn(7) && row.sn_id !== 'DIR-NEW') expect(row).toBe(before.get(row.sn_id));

    // A change of a column that does not move updated_at (a direct write) still gives the row a new object.
    await db.updateTable('devices').set({ altn_lat: 30.5, altn_lng: 114.3 }).where('sn_id', '=', sn(3)).execute();
    await directory.reload();
    expect(directory.generation).toBe(generation + 2);
    expect(directory.get(sn(3))?.altn_lat).toBe(30.5);
    expect(directory.get(sn(3))).not.toBe(before.get(sn(3)));
  });

  it('checks the table by two figures every RELOAD_MS and reloads only when they moved, a write may share the last reload\'s second, or every FULL_EVERY-th time', async () => {
    const past = 1_700_000_000;
    // Every row last written long before this reload starts.
    await db.updateTable('devices').set({ updated_at: past }).execute();
    const directory = new DeviceDirectory(db);
    await directory.reload();
    const generation = directory.generation;

    // Nothing written: no reload.
    expect(await directory.poll()).toBe(false);
    expect(directory.generation).toBe(generation);

    // A write that moves the latest updated_at (even to a time long past): reloaded.
    await db.updateTable('devices').set({ airport_name: 'Polled 11', updated_at: past + 1 }).where('sn_id', '=', sn(11)).execute();
    expect(await directory.poll()).toBe(true);
    expect(directory.get(sn(11))?.airport_name).toBe('Polled 11');
    expect(await directory.poll()).toBe(false);

    // A new row, even one dated in the past: the count moved.
    await createDevice(db, { type: 'stable', sn_id: 'DIR-POLL', company_id: ADMIN_COMPANY });
    await db.updateTable('devices').set({ updated_at: past }).where('sn_id', '=', 'DIR-POLL').execute();
    expect(await directory.poll()).toBe(true);
    expect(directory.get('DIR-POLL')).toBeDefined();

    // A write through the store: updated_at is now, at or after the last reload's second.
    const row = (await findDeviceBySn(db, sn(12)))!;
    await updateDeviceRow(db, row.id, { airport_name: 'Polled 12' });
    expect(await directory.poll()).toBe(true);
    expect(directory.get(sn(12))?.airport_name).toBe('Polled 12');
    // Back to long past, so that the figures say nothing from here on.
    await db.updateTable('devices').set({ updated_at: past }).execute();
    await directory.reload();

    // A write that moves neither figure (a writer whose clock runs behind) shows at the next full reload.
    await db.updateTable('devices').set({ airport_name: 'Behind 13' }).where('sn_id', '=', sn(13)).execute();
    const results: boolean[] = [];
    for (let i = 0; i < DeviceDirectory.FULL_EVERY; i++) results.push(await directory.poll());
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(directory.get(sn(13))?.airport_name).toBe('Behind 13');
  });
});
