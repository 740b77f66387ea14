// The embedded store keys time series by integers (a device number, a key dictionary): a database
// that an earlier dhi left with text keys is migrated with every value, and a key id or device number
// learnt inside a transaction that rolls back is not used afterwards. Telemetry rows are gathered
// and written together (store/group-commit.ts buffered writes), with the outcome of writing them
// message by message, in order with the transaction's other writes.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../store/sqlite-schema.js';
import { createSqliteStore } from '../store/sqlite.js';
import { newDevice } from '../device-records.js';
import { storedRows, tempDir, writeTelemetry } from './helpers.js';
import { DeletedMeanwhile, type DeviceRecord, type DeviceSeries, type KvEntry, type Store } from '../store/types.js';

/** A row SQLite would refuse (ts is NOT NULL): the store refuses its message alone. */
const nullTs = (key: string): KvEntry => ({ key, ts: null as unknown as number, type: 'LONG', value: 1 });
/** A value SQLite cannot bind: it fails the flush of the rows, and with it the whole transaction. */
const unbindable = (key: string): KvEntry => ({ key, ts: 1, type: 'STRING', value: {} as unknown as string });

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

/** Every stored point of these keys (the tests' timestamps are small). */
const everyPoint = (series: DeviceSeries, keys: string[]) => series.range({ keys, startTs: 0, endTs: 2 ** 40, limit: 10_000, order: 'ASC' });

/** Schema version 4: telemetry rows carried the device UUID and the key text. */
const TEXT_KEYED_VERSION = 4;
/** Schema version 11: the telemetry log's rows carried their type's name. */
const NAMED_TYPES_VERSION = 11;

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
      expect(await store.readTelemetry('dev-a', (s) => s.latest())).toEqual([
        { key: 'big', ts: 2000, type: 'LONG', value: 9223372036854775807n },
        { key: 'temp', ts: 2000, type: 'DOUBLE', value: 22 },
      ]);
      expect((await store.readTelemetry('dev-a', (s) => s.range({ keys: ['temp'], startTs: 0, endTs: 3000, limit: 10, order: 'ASC' }))).map((e) => e.value))
        .toEqual([21.5, 22]);
      expect(await store.readTelemetry('dev-b', (s) => s.keys())).toEqual(['temp']);
      expect(await storedRows(store, path, 'dev-a')).toBe(3);

      // A device made after the migration gets its own number: its rows are not dev-a's or dev-b's.
      const c = newDevice({ name: 'c', profileId: 'profile-1' });
      await store.write(() => store.insertDevice(c));
      await writeTelemetry(store, c.id, [{ key: 'temp', ts: 3000, type: 'LONG', value: 1 }]);
      expect(await store.readTelemetry(c.id, (s) => s.latest())).toEqual([{ key: 'temp', ts: 3000, type: 'LONG', value: 1 }]);
      expect(await storedRows(store, path, 'dev-b')).toBe(1);

      // Deleting a device deletes its time series, and a later device does not inherit them.
      await store.write(() => store.deleteDevice(c.id));
      const d = newDevice({ name: 'd', profileId: 'profile-1' });
      await store.write(() => store.insertDevice(d));
      expect(await store.readTelemetry(d.id, (s) => s.latest())).toEqual([]);
      // d took c's number: a late message of c is refused, not written as d's.
      await expect(writeTelemetry(store, c.id, [{ key: 'temp', ts: 4000, type: 'LONG', value: 2 }])).rejects.toBeInstanceOf(DeletedMeanwhile);
      expect(await storedRows(store, path, d.id)).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('migrates the rows waiting in the log, whose types were names, and folds them with their types', async () => {
    const path = join(tempDir(), 'named-types.db');
    const old = new Database(path);
    migrate(old, 'profile-1', 1, NAMED_TYPES_VERSION);
    old.prepare(`INSERT INTO devices (id, name, type, token, credentials_type, profile_id, created_time)
      VALUES ('dev-a', 'a', 'default', 'token-a', 'ACCESS_TOKEN', 'profile-1', 0)`).run();
    const typed: [KvEntry['type'], number | string, KvEntry['value']][] = [
      ['BOOLEAN', 1, true], ['LONG', '9223372036854775807', 9223372036854775807n], ['DOUBLE', 1.5, 1.5], ['STRING', 's', 's'], ['JSON', '{"a":1}', '{"a":1}'],
    ];
    for (const [type, cell] of typed) {
      old.prepare('INSERT INTO telemetry_keys (key) VALUES (?)').run(type);
      old.prepare(`INSERT INTO telemetry_log (device, key, ts, type, value) SELECT d.num, k.id, 5, ?, ? FROM devices d, telemetry_keys k
        WHERE d.id = 'dev-a' AND k.key = ?`).run(type, cell, type);
    }
    old.close();

    const store = createSqliteStore(path);
    try {
      const expected = typed.map(([type, , value]) => ({ key: type, ts: 5, type, value })).sort((a, b) => a.key.localeCompare(b.key));
      expect(await store.readTelemetry('dev-a', (s) => s.latest())).toEqual(expected);
    } finally {
      await store.close();
    }
  });

  it('forgets the key ids and device numbers learnt in a transaction that rolled back', async () => {
    await withDevice(async (store, device) => {
      const profileId = store.defaultProfile().id;
      const late = newDevice({ name: 'late', profileId });
      // One transaction: a device is added, its telemetry learns its number and a new key's id, and
      // an unbindable value then fails the whole transaction.
      const outcomes = await Promise.allSettled([
        store.write(() => store.insertDevice(late)),
        writeTelemetry(store, late.id, [{ key: 'ghost', ts: 1, type: 'LONG', value: 1 }]),
        writeTelemetry(store, device.id, [unbindable('other')]),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(store.deviceById(late.id)).toBeUndefined();

      // 'real' now takes the id 'ghost' had, and another device the number 'late' had.
      const taker = newDevice({ name: 'taker', profileId });
      await store.write(() => store.insertDevice(taker));
      await store.write(() => store.insertDevice(late));
      await writeTelemetry(store, device.id, [{ key: 'real', ts: 2, type: 'LONG', value: 2 }]);
      await writeTelemetry(store, device.id, [{ key: 'ghost', ts: 3, type: 'LONG', value: 3 }]);
      await writeTelemetry(store, late.id, [{ key: 'mine', ts: 4, type: 'LONG', value: 4 }]);
      expect(await store.readTelemetry(device.id, (s) => s.latest())).toEqual([
        { key: 'ghost', ts: 3, type: 'LONG', value: 3 },
        { key: 'real', ts: 2, type: 'LONG', value: 2 },
      ]);
      expect(await store.readTelemetry(late.id, (s) => s.latest())).toEqual([{ key: 'mine', ts: 4, type: 'LONG', value: 4 }]);
      expect(await store.readTelemetry(taker.id, (s) => s.latest())).toEqual([]);
    });
  });

  it('writes the rows of a transaction together, as message-by-message writes would leave them', async () => {
    await withDevice(async (store, device) => {
      const send = (key: string, ts: number, value: number) => writeTelemetry(store, device.id, [{ key, ts, type: 'LONG', value }]);
      await send('old', 100, 1);
      // One batch (the writes of one event-loop turn): an older ts does not replace a newer one, the
      // later of two equal ts wins, an older ts than the stored one leaves it, and a message that is
      // refused leaves none of its rows and counts for nothing.
      const failing = writeTelemetry(store, device.id, [{ key: 'a', ts: 9, type: 'LONG', value: 99 }, nullTs('c')]);
      const kept = Promise.all([send('a', 5, 1), send('a', 3, 2), send('a', 5, 3), send('old', 50, 4), send('b', 1, 5)]);
      await expect(failing).rejects.toThrow('telemetry ts null is not a number');
      await kept;
      expect((await store.readTelemetry(device.id, (s) => s.latest())).map(({ key, ts, value }) => ({ key, ts, value }))).toEqual([
        { key: 'a', ts: 5, value: 3 },
        { key: 'b', ts: 1, value: 5 },
        { key: 'old', ts: 100, value: 1 },
      ]);
      expect((await store.readTelemetry(device.id, (s) => s.range({ keys: ['a'], startTs: 0, endTs: 10, limit: 10, order: 'ASC' }))).map((e) => e.value))
        .toEqual([2, 3]);
    });
  });

  it('keeps the order of a transaction: a delete after a message deletes what the message wrote', async () => {
    await withDevice(async (store, device) => {
      // Both writes run in one transaction (they are queued in the same event-loop turn).
      const sent = writeTelemetry(store, device.id, [{ key: 't', ts: 5, type: 'LONG', value: 1 }]);
      const removed = store.write(() => store.deleteTelemetry(device.id, ['t'], { startTs: 0, endTs: 10, deleteLatest: true, rewriteLatest: false }));
      await Promise.all([sent, removed]);
      expect(await store.readTelemetry(device.id, (s) => s.latest())).toEqual([]);
      expect(await store.readTelemetry(device.id, (s) => everyPoint(s, ['t']))).toEqual([]);
    });
  });

  it('leaves nothing of a device deleted in the transaction that wrote its telemetry', async () => {
    await withDevice(async (store, device) => {
      const sent = writeTelemetry(store, device.id, [{ key: 't', ts: 5, type: 'LONG', value: 1 }]);
      const gone = store.write(() => store.deleteDevice(device.id));
      await Promise.all([sent, gone]);
      // The next device gets a number of its own (the deleted one had the greatest): it starts empty,
      // and the deleted device's rows stay out of the tables when the whole log is folded.
      const next = newDevice({ name: 'next', profileId: store.defaultProfile().id });
      await store.write(() => store.insertDevice(next));
      expect(await store.readTelemetry(next.id, (s) => s.latest())).toEqual([]);
      expect(await store.readTelemetry(next.id, (s) => s.keys())).toEqual([]);
      expect(await store.profileTelemetryKeys(null)).toEqual([]);
    });
  });

  it('folds the batches a read finds in the log as writing their messages one by one would', async () => {
    await withDevice(async (store, device) => {
      const send = (key: string, ts: number, value: number) => writeTelemetry(store, device.id, [{ key, ts, type: 'LONG', value }]);
      await send('a', 100, 1);
      expect(await store.readTelemetry(device.id, (s) => everyPoint(s, ['a', 'b']).length)).toBe(1);
      // Four batches in the log before the next read: equal ts replaced by the later message across
      // batches, an older ts kept in the series but not as the latest, a newer one taking the latest.
      await send('a', 50, 2);
      await send('a', 100, 3);
      await send('b', 7, 4);
      await Promise.all([send('b', 9, 5), send('b', 9, 6), send('b', 8, 7)]);
      const [latest, a, b] = await store.readTelemetry(device.id, (s) => [
        s.latest().map(({ key, ts, value }) => ({ key, ts, value })),
        s.range({ keys: ['a'], startTs: 0, endTs: 1000, limit: 10, order: 'ASC' }).map(({ ts, value }) => [ts, value]),
        s.range({ keys: ['b'], startTs: 0, endTs: 1000, limit: 10, order: 'ASC' }).map(({ ts, value }) => [ts, value]),
      ]);
      expect(latest).toEqual([{ key: 'a', ts: 100, value: 3 }, { key: 'b', ts: 9, value: 6 }]);
      expect(a).toEqual([[50, 2], [100, 3]]);
      expect(b).toEqual([[7, 4], [8, 7], [9, 6]]);
    });
  });

  it('reads in a callback the series of its own device, also around a read of another device inside it, and refuses reads after it', async () => {
    await withDevice(async (store, device) => {
      const other = newDevice({ name: 'other', profileId: store.defaultProfile().id });
      await store.write(() => store.insertDevice(other));
      await writeTelemetry(store, device.id, [{ key: 'mine', ts: 1, type: 'LONG', value: 1 }]);
      await writeTelemetry(store, other.id, [{ key: 'theirs', ts: 2, type: 'LONG', value: 2 }]);
      // Every row folded: the inner read has nothing to wait for and runs inside the outer callback.
      expect(await store.profileTelemetryKeys(null)).toEqual(['mine', 'theirs']);
      const [before, inner, after] = await store.readTelemetry(device.id, (s) => [s.keys(), store.readTelemetry(other.id, (o) => o.latest()), s.keys()] as const);
      expect([before, await inner, after]).toEqual([['mine'], [{ key: 'theirs', ts: 2, type: 'LONG', value: 2 }], ['mine']]);
      const kept = await store.readTelemetry(device.id, (s) => s);
      expect(() => kept.latest()).toThrow('a DeviceSeries is read only inside its readTelemetry callback');
    });
  });

  it('deletes what a read has folded for good: the fold of every row does not bring it back', async () => {
    await withDevice(async (store, device) => {
      await writeTelemetry(store, device.id, [{ key: 'k', ts: 5, type: 'LONG', value: 1 }, { key: 'j', ts: 5, type: 'LONG', value: 2 }]);
      expect(await store.readTelemetry(device.id, (s) => everyPoint(s, ['k', 'j']).length)).toBe(2);
      await store.write(() => store.deleteTelemetry(device.id, ['k'], { startTs: 0, endTs: 10, deleteLatest: true, rewriteLatest: false }));
      // Every row folded (a read across devices), then the device read again.
      expect(await store.profileTelemetryKeys(null)).toEqual(['j']);
      expect(await store.readTelemetry(device.id, (s) => [everyPoint(s, ['k', 'j']).length, s.keys()])).toEqual([1, ['j']]);
    });
  });

  it('deletes rows still in the log as if they had been written one by one: the latest value kept, or rewritten from the rest', async () => {
    await withDevice(async (store, device) => {
      const send = (key: string, ts: number, value: number) => writeTelemetry(store, device.id, [{ key, ts, type: 'LONG', value }]);
      const read = () => store.readTelemetry(device.id, (s) => [
        s.latest().map(({ key, ts, value }) => [key, ts, value]),
        s.range({ keys: ['a', 'b'], startTs: 0, endTs: 1000, limit: 10, order: 'ASC' }).map(({ key, ts }) => [key, ts]),
      ]);
      await Promise.all([send('a', 10, 1), send('a', 20, 2), send('a', 30, 3), send('b', 10, 4), send('b', 20, 5)]);
      // Of a: the range without its latest value (kept, as ThingsBoard keeps it); of b: the latest value
      // too, rewritten from the newest row left, which is still in the log.
      await store.write(() => store.deleteTelemetry(device.id, ['a'], { startTs: 15, endTs: 100, deleteLatest: false, rewriteLatest: false }));
      await store.write(() => store.deleteTelemetry(device.id, ['b'], { startTs: 15, endTs: 100, deleteLatest: true, rewriteLatest: true }));
      expect(await read()).toEqual([[['a', 30, 3], ['b', 10, 4]], [['a', 10], ['b', 10]]]);
      expect(await store.profileTelemetryKeys(null)).toEqual(['a', 'b']);
      expect(await read()).toEqual([[['a', 30, 3], ['b', 10, 4]], [['a', 10], ['b', 10]]]);
    });
  });

  it('reads the saved device state from latest values still in the log (device state at start-up)', async () => {
    await withDevice(async (store, device) => {
      const saved = async () => (await store.savedStates(['active'], 'TELEMETRY')).find((s) => s.deviceId === device.id)?.entries.map(({ key, ts, value }) => [key, ts, value]);
      await writeTelemetry(store, device.id, [{ key: 'active', ts: 1, type: 'BOOLEAN', value: true }]);
      expect(await saved()).toEqual([['active', 1, true]]);
      await writeTelemetry(store, device.id, [{ key: 'active', ts: 2, type: 'BOOLEAN', value: false }]);
      expect(await saved()).toEqual([['active', 2, false]]);
    });
  });

  it('keeps a latest value newer than any the log holds, and one deleted meanwhile stays deleted until a newer message', async () => {
    await withDevice(async (store, device) => {
      const send = (ts: number, value: number) => writeTelemetry(store, device.id, [{ key: 'k', ts, type: 'LONG', value }]);
      const latest = () => store.readTelemetry(device.id, (s) => s.latest().map(({ ts, value }) => [ts, value]));
      await send(500, 1);
      await send(400, 2);
      expect(await latest()).toEqual([[500, 1]]);
      // The delete folds first: the message before it is deleted with the rest of the range.
      await send(600, 3);
      await store.write(() => store.deleteTelemetry(device.id, ['k'], { startTs: 450, endTs: 1000, deleteLatest: true, rewriteLatest: false }));
      expect(await latest()).toEqual([]);
      await send(300, 4);
      expect(await latest()).toEqual([[300, 4]]);
      expect(await store.readTelemetry(device.id, (s) => s.range({ keys: ['k'], startTs: 0, endTs: 1000, limit: 10, order: 'ASC' }).map((e) => e.ts))).toEqual([300, 400]);
    });
  });
});
