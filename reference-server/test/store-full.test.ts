// A store that fills up loses nothing it acknowledged and keeps nothing it refused, on every write
// path: telemetry committed by the telemetry worker, writes on the event loop, and batches of both.
// The store is made full without a special filesystem: SQLite's max_page_count caps the file, and a
// write past it fails with SQLITE_FULL, as on a full disk. What was stored is read from the file
// after the store has closed.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../store/sqlite.js';
import { newDevice } from '../device-records.js';
import { storeWithRoomFor, tempDir } from './helpers.js';
import { StoreUnavailable, type DeviceRecord, type KvEntry, type Store } from '../store/types.js';

/** Room for a few dozen of the values below (4 KB pages) beyond an empty store. */
const SPARE_PAGES = 40;
const VALUE = 'x'.repeat(6000);
/** Writes sent together, so that they form batches of several. */
const WAVE = 8;
/** Enough waves to fill the spare pages several times over. */
const WAVES = 12;

type Outcome = { ts: number; error: Error | null };

/** A file store with one device whose file may grow by SPARE_PAGES pages, and its path. */
async function fullableStore(): Promise<{ store: Store; device: DeviceRecord; path: string }> {
  const path = join(tempDir(), 'full.db');
  const setup = createSqliteStore(path);
  const device = newDevice({ name: 'filler', profileId: setup.defaultProfile().id });
  await setup.write(() => setup.insertDevice(device));
  await setup.close();
  return { store: await storeWithRoomFor(path, SPARE_PAGES), device, path };
}

const telemetry = (store: Store, deviceId: string, ts: number) =>
  new Promise<Outcome>((resolve) => store.writeTelemetry(deviceId, [{ key: 'pad', ts, type: 'STRING', value: VALUE }], (error) => resolve({ ts, error }), undefined));

const attribute = (store: Store, deviceId: string, ts: number): Promise<Outcome> => {
  const entry: KvEntry = { key: `attr${ts}`, ts, type: 'STRING', value: VALUE };
  return store.write(() => store.upsertAttributes(deviceId, 'CLIENT_SCOPE', [entry])).then(() => ({ ts, error: null }), (error: Error) => ({ ts, error }));
};

/** Waves of writes to a store that fills up, until it has refused whole waves: every outcome, and the file. */
async function fill(send: (store: Store, deviceId: string, ts: number) => Promise<Outcome>): Promise<{ outcomes: Outcome[]; path: string }> {
  const { store, device, path } = await fullableStore();
  const outcomes: Outcome[] = [];
  let ts = 1;
  try {
    for (let wave = 0; wave < WAVES; wave++) {
      outcomes.push(...(await Promise.all(Array.from({ length: WAVE }, () => send(store, device.id, ts++)))));
    }
  } finally {
    await store.close();
  }
  return { outcomes, path };
}

/** The outcomes split, with the refusals checked: each a StoreUnavailable saying the store is full. */
function split(outcomes: Outcome[]): { acknowledged: number[]; refused: number[] } {
  const refused = outcomes.filter((o) => o.error);
  for (const { error } of refused) {
    // An Error (the worker's SqliteError arrived as a plain object, answered 200), saying why.
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect(error, error!.message).toMatchObject({ code: 'SQLITE_FULL' });
  }
  const acknowledged = outcomes.filter((o) => !o.error).map((o) => o.ts);
  // The test filled the store: some writes went in, the last waves were refused.
  expect(acknowledged.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(WAVE);
  return { acknowledged, refused: refused.map((o) => o.ts) };
}

function readFile<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

// A message is in the time series or still in the telemetry log (a fold moves rows from one to the
// other in one transaction, and a full store may refuse the fold at close).
const storedTelemetry = (path: string) => readFile(path, (db) =>
  (db.prepare('SELECT ts FROM telemetry UNION ALL SELECT ts FROM telemetry_log').pluck().all() as number[]).sort((a, b) => a - b));
const storedAttributes = (path: string) => readFile(path, (db) => (db.prepare('SELECT last_update_ts FROM attributes').pluck().all() as number[]).sort((a, b) => a - b));

describe('a full store', () => {
  it('answers telemetry the worker could not commit with an Error, keeps every acknowledged message and none of the refused', async () => {
    const { outcomes, path } = await fill(telemetry);
    expect(storedTelemetry(path)).toEqual(split(outcomes).acknowledged);
  });

  it('answers event-loop writes it could not commit with an Error, keeps every acknowledged one and none of the refused', async () => {
    const { outcomes, path } = await fill(attribute);
    expect(storedAttributes(path)).toEqual(split(outcomes).acknowledged);
  });

  it('keeps exactly the acknowledged writes of batches that mix telemetry and other writes', async () => {
    // Each wave is one batch on the event loop: telemetry and attributes in turn.
    const { outcomes, path } = await fill((store, deviceId, ts) => (ts % 2 ? telemetry : attribute)(store, deviceId, ts));
    const stored = [...storedTelemetry(path), ...storedAttributes(path)].sort((a, b) => a - b);
    expect(stored).toEqual(split(outcomes).acknowledged);
  });
});
