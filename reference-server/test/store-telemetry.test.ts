// The embedded store keys time series by integers (a device number, a key dictionary): a database
// that an earlier dhi left with text keys is migrated with every value, and a key id learnt inside
// a write that rolls back is not reused for another key. Latest values are written once per
// transaction, with the outcome of writing them message by message.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../store/sqlite-schema.js';
import { createSqliteStore } from '../store/sqlite.js';
import { newDevice } from '../device-records.js';
import { tempDir } from './helpers.js';
import { DeletedMeanwhile, type DeviceRecord, type KvEntry, type Store } from '../store/types.js';

/** A row SQLite refuses (ts is NOT NULL): how these tests make a write fail inside the store. */
const nullTs = (key: string): KvEntry => ({ key, ts: null as unknown as number, type: 'LONG', value: 1 });

/** An in-memory store with one device, closed afterwards. */
async function withDevice(test: (store: Store, device: DeviceRecord) => Promise<void>): Promise<void> {
  const store = createSqliteStore(':memory:');
  try {
    const device = newDevice({ name: 'device', profileId: store.defaultProfile().id });
    await store.write(() => store.insertDevice(device));
    await test(store, device);
  } finally {
    await store.close();
  }
}

/** Schema version 4: telemetry rows carried the device UUID and the key text. */
const TEXT_KEYED_VERSION = 4;

describe('time series keyed by integers', () => {
  it('migrates a text-keyed database: values, latest values, key lists and deletes unchanged', async () => {
    const path = join(tempDir(), 'old.db');
    const old = new Database(path);
    migrate(old, 'profile-1', 1, TEXT_KEYED_VERSION);
    const addDevice = old.prepare(`INSERT INTO devices (id, name, type, token, credentials_type, profile_id, created_time)
      VALUES (?, ?, 'default', ?, 'ACCESS_TOKEN', 'profile-1', 0)`);
    addDevice.run('dev-a', 'a', 'token-a');
    addDevice.run('dev-b', 'b', 'token-b');
    const row = old.prepare('INSERT INTO telemetry (device_id, key, ts, type, value) VALUES (?, ?, ?, ?, ?)');
    const latest = old.prepare('INSERT INTO telemetry_latest (device_id, key, ts, type, value) VALUES (?, ?, ?, ?, ?)');
    row.run('dev-a', 'temp', 1000, 'DOUBLE', 21.5);
    row.run('dev-a', 'temp', 2000, 'DOUBLE', 22.0);
    row.run('dev-a', 'big', 2000, 'LONG', '9223372036854775807');
    row.run('dev-b', 'temp', 1500, 'LONG', 7);
    latest.run('dev-a', 'temp', 2000, 'DOUBLE', 22.0);
    latest.run('dev-a', 'big', 2000, 'LONG', '9223372036854775807');
    latest.run('dev-b', 'temp', 1500, 'LONG', 7);
    old.close();

    const store = createSqliteStore(path);
    try {
      expect(store.latestTelemetry('dev-a')).toEqual([
        { key: 'big', ts: 2000, type: 'LONG', value: 9223372036854775807n },
        { key: 'temp', ts: 2000, type: 'DOUBLE', value: 22 },
      ]);
      expect(store.telemetryRange('dev-a', { keys: ['temp'], startTs: 0, endTs: 3000, limit: 10, order: 'ASC' }).map((e) => e.value))
        .toEqual([21.5, 22]);
      expect(store.telemetryKeys('dev-b')).toEqual(['temp']);
      expect(store.telemetryCount('dev-a')).toBe(3);

      // A device made after the migration gets its own number: its rows are not dev-a's or dev-b's.
      const c = newDevice({ name: 'c', profileId: 'profile-1' });
      await store.write(() => store.insertDevice(c));
      await store.writeTelemetry(c.id, [{ key: 'temp', ts: 3000, type: 'LONG', value: 1 }]);
      expect(store.latestTelemetry(c.id)).toEqual([{ key: 'temp', ts: 3000, type: 'LONG', value: 1 }]);
      expect(store.telemetryCount('dev-b')).toBe(1);

      // Deleting a device deletes its time series, and a later device does not inherit them.
      await store.write(() => store.deleteDevice(c.id));
      const d = newDevice({ name: 'd', profileId: 'profile-1' });
      await store.write(() => store.insertDevice(d));
      expect(store.latestTelemetry(d.id)).toEqual([]);
      // d took c's number: a late message of c is refused, not written as d's.
      await expect(store.writeTelemetry(c.id, [{ key: 'temp', ts: 4000, type: 'LONG', value: 2 }])).rejects.toBeInstanceOf(DeletedMeanwhile);
      expect(store.telemetryCount(d.id)).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('forgets a key id learnt in a write that rolled back', async () => {
    await withDevice(async (store, device) => {
      // 33 rows take two statements: 'ghost' gets an id in the first, the second fails (a null ts),
      // and the write's savepoint rolls back, taking the id with it.
      const ghostRows: KvEntry[] = Array.from({ length: 32 }, (_, i) => ({ key: 'ghost', ts: i + 1, type: 'LONG', value: 1 }));
      await expect(store.writeTelemetry(device.id, [...ghostRows, nullTs('ghost')])).rejects.toThrow(/NOT NULL/);
      expect(store.telemetryCount(device.id)).toBe(0);
      // 'real' now takes that id; 'ghost' must get one of its own, not write over 'real'.
      await store.writeTelemetry(device.id, [{ key: 'real', ts: 2, type: 'LONG', value: 2 }]);
      await store.writeTelemetry(device.id, [{ key: 'ghost', ts: 3, type: 'LONG', value: 3 }]);
      expect(store.latestTelemetry(device.id)).toEqual([
        { key: 'ghost', ts: 3, type: 'LONG', value: 3 },
        { key: 'real', ts: 2, type: 'LONG', value: 2 },
      ]);
    });
  });

  it('writes latest values once per transaction, as message-by-message updates would leave them', async () => {
    await withDevice(async (store, device) => {
      const send = (key: string, ts: number, value: number) => store.writeTelemetry(device.id, [{ key, ts, type: 'LONG', value }]);
      await send('old', 100, 1);
      // One batch (the writes of one event-loop turn): an older ts does not replace a newer one, the
      // later of two equal ts wins, an older ts than the stored one leaves it, and a message that
      // fails (one statement, no savepoint) leaves none of its rows and counts for nothing.
      const failing = store.writeTelemetry(device.id, [{ key: 'a', ts: 9, type: 'LONG', value: 99 }, nullTs('c')]);
      const kept = Promise.all([send('a', 5, 1), send('a', 3, 2), send('a', 5, 3), send('old', 50, 4), send('b', 1, 5)]);
      await expect(failing).rejects.toThrow(/NOT NULL/);
      await kept;
      expect(store.latestTelemetry(device.id).map(({ key, ts, value }) => ({ key, ts, value }))).toEqual([
        { key: 'a', ts: 5, value: 3 },
        { key: 'b', ts: 1, value: 5 },
        { key: 'old', ts: 100, value: 1 },
      ]);
      expect(store.telemetryRange(device.id, { keys: ['a'], startTs: 0, endTs: 10, limit: 10, order: 'ASC' }).map((e) => e.value))
        .toEqual([2, 3]);
    });
  });
});
