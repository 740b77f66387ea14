// A batch of nothing but telemetry is committed by the telemetry worker on its own connection
// (store/telemetry-committer.ts, telemetry-worker.ts), answered once that thread has committed it
// (synchronous=FULL: with its WAL synced); any other write runs on the event loop, after the worker
// has committed the telemetry queued before it, and the telemetry queued after it goes to the worker again. Its rows wait in the telemetry log until a fold, on the worker too.
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '../store/group-commit.js';
import type { Offload } from '../store/buffered-writes.js';
import { openDatabase } from '../store/sqlite-connection.js';
import { migrate } from '../store/sqlite-schema.js';
import { createTelemetryCommitter } from '../store/telemetry-committer.js';
import { createTelemetryWriter, type TelemetryMessage } from '../store/sqlite-telemetry.js';
import type { FoldScope } from '../store/sqlite-telemetry-log.js';
import { NUMS, type PackedRows } from '../store/telemetry-rows.js';
import { createSqliteStore } from '../store/sqlite.js';
import { newDevice } from '../device-records.js';
import { tempDir, writeTelemetry } from './helpers.js';
import type { KvEntry } from '../store/types.js';

const DEVICE = 'device-1';

/**
 * A migrated file database with one device, its group commit with the real worker, and what went to
 * the worker. A fold of every row that is due goes in slices of about `sliceRows` (by default, all at once).
 */
function setup(foldRows?: number, sliceRows?: number) {
  const path = join(tempDir(), 'worker.db');
  const db = openDatabase(path);
  migrate(db, 'profile-1', 0);
  db.prepare(`INSERT INTO devices (id, name, type, token, credentials_type, profile_id, created_time)
    VALUES (?, 'd', 'default', 'token', 'ACCESS_TOKEN', 'profile-1', 0)`).run(DEVICE);
  const committer = createTelemetryCommitter(path);
  const offloaded: number[] = [];
  let folds = 0;
  const offload: Offload<FoldScope, PackedRows> = {
    get ready() {
      return committer.ready;
    },
    commit(rows, done) {
      offloaded.push(rows.nums.length / NUMS);
      committer.commit(rows, done);
    },
    fold(scope, done) {
      folds++;
      committer.fold(scope, done);
    },
  };
  const writer = createTelemetryWriter(db, foldRows === undefined ? undefined : () => foldRows, sliceRows);
  const group = createGroupCommit<TelemetryMessage, FoldScope, PackedRows>(db, writer, offload);
  const send = (entries: KvEntry[]) =>
    new Promise<void>((resolve, reject) => group.writeBuffered({ deviceId: DEVICE, entries }, (error) => (error ? reject(error) : resolve()), undefined));
  const rows = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  // What a store read of the device sees: its rows folded in first.
  const scope = () => writer.foldScope(DEVICE);
  const latest = () => group.read(scope(), () => db.prepare(`SELECT k.key, l.ts, l.value FROM telemetry_latest l JOIN telemetry_keys k ON k.id = l.key ORDER BY k.key`).all());
  const count = () => group.read(scope(), () => rows('telemetry'));
  const close = async () => {
    await group.close();
    await committer.close();
    db.close();
  };
  return { path, db, writer, group, committer, offloaded, folds: () => folds, send, rows, latest, count, close };
}

const long = (key: string, ts: number, value: number): KvEntry => ({ key, ts, type: 'LONG', value });

describe('the telemetry worker', () => {
  it('commits a batch of nothing but telemetry on its own connection, visible to the store once answered', async () => {
    const t = setup();
    try {
      await Promise.all([t.send([long('a', 1, 1), long('b', 1, 2)]), t.send([long('a', 2, 3)])]);
      expect(t.offloaded).toEqual([3]);
      expect(await t.latest()).toEqual([{ key: 'a', ts: 2, value: 3 }, { key: 'b', ts: 1, value: 2 }]);
      expect(await t.count()).toBe(3);
    } finally {
      await t.close();
    }
    // Synced before it was answered: the file holds the rows after the connections closed.
    const reopened = new Database(t.path, { readonly: true });
    expect(reopened.prepare('SELECT count(*) AS n FROM telemetry').get()).toEqual({ n: 3 });
    reopened.close();
  });

  it('runs another write on the event loop in queue order, leaving the telemetry queued around it to the worker', async () => {
    const t = setup();
    try {
      await t.send([long('a', 1, 1)]);
      const before = t.send([long('a', 5, 2)]);
      // A write that changes the time series first takes the device's rows out of the log, as the store's deletes do.
      const removed = t.group.write(() => {
        t.writer.settle(DEVICE);
        t.db.prepare('DELETE FROM telemetry_latest').run();
      });
      const after = t.send([long('b', 6, 3), long('c', 6, 4)]);
      await Promise.all([before, removed, after]);
      // The rows queued before the delete were committed (and so deleted) first; those after it, after.
      expect(t.offloaded).toEqual([1, 1, 2]);
      expect(await t.latest()).toEqual([{ key: 'b', ts: 6, value: 3 }, { key: 'c', ts: 6, value: 4 }]);
      expect(await t.count()).toBe(4);
    } finally {
      await t.close();
    }
  });

  it('fails a batch the worker could not commit as a whole, and commits the next one', async () => {
    const t = setup();
    try {
      // A value SQLite cannot bind: the worker's transaction rolls back, taking the key 'ghost' it added.
      const unbindable: KvEntry = { key: 'other', ts: 1, type: 'STRING', value: {} as unknown as string };
      const outcomes = await Promise.allSettled([t.send([long('ghost', 1, 1)]), t.send([unbindable])]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
      // Errors, as the worker's SqliteError was (a plain object would be answered as a 200 body).
      for (const outcome of outcomes) expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(Error);
      expect(await t.count()).toBe(0);
      // 'real' takes the id 'ghost' had in the worker's rolled-back transaction; 'ghost' gets its own.
      await t.send([long('real', 2, 2)]);
      await t.send([long('ghost', 3, 3)]);
      expect(await t.latest()).toEqual([{ key: 'ghost', ts: 3, value: 3 }, { key: 'real', ts: 2, value: 2 }]);
      expect(t.offloaded).toEqual([2, 1, 1]);
    } finally {
      await t.close();
    }
  });

  it('once closed, leaves the batches to the event loop', async () => {
    const t = setup();
    try {
      await t.send([long('a', 1, 1)]);
      await t.committer.close();
      expect(t.committer.ready).toBe(false);
      await t.send([long('a', 2, 2)]);
      expect(t.offloaded).toEqual([1]);
      expect(await t.latest()).toEqual([{ key: 'a', ts: 2, value: 2 }]);
    } finally {
      await t.close();
    }
  });
});

describe('the telemetry log', () => {
  it('keeps answered messages in the log until a read, or enough rows, has the worker fold them in', async () => {
    const t = setup(6);
    try {
      await t.send([long('a', 1, 1), long('b', 1, 2)]);
      expect([t.rows('telemetry_log'), t.rows('telemetry'), t.folds()]).toEqual([2, 0, 0]);
      // A read folds the device first: it sees every answered message (taken out of the log).
      expect(await t.latest()).toEqual([{ key: 'a', ts: 1, value: 1 }, { key: 'b', ts: 1, value: 2 }]);
      expect([t.rows('telemetry_log'), t.rows('telemetry'), t.folds()]).toEqual([0, 2, 1]);
      // Eight rows gathered (six needed): the fold of every row runs before the next batch.
      await t.send([long('a', 2, 3), long('b', 2, 4), long('c', 2, 5), long('a', 3, 6), long('b', 3, 7), long('c', 3, 8)]);
      await t.send([long('a', 4, 9)]);
      expect([t.rows('telemetry_log'), t.rows('telemetry'), t.folds()]).toEqual([1, 8, 2]);
      expect(t.offloaded).toEqual([2, 6, 1]);
    } finally {
      await t.close();
    }
  });

  it('has a thread of its own copy the WAL into the database file after a fold of every row', async () => {
    const t = setup(6);
    const fileBytes = () => statSync(t.path).size;
    try {
      await t.send([long('a', 1, 1), long('b', 1, 2), long('c', 1, 3), long('a', 2, 4), long('b', 2, 5), long('c', 2, 6)]);
      // Nothing copied yet: the schema, the device and the log are in the WAL alone.
      const before = fileBytes();
      // The fold of every row runs before this batch; its COMMIT is far below the autocheckpoint
      // threshold, so only the checkpoint thread copies the WAL.
      await t.send([long('a', 3, 7)]);
      expect([t.rows('telemetry_log'), t.rows('telemetry'), t.folds()]).toEqual([1, 6, 1]);
      await t.group.close();
      // Closing the worker waits for the checkpoint in hand.
      await t.committer.close();
      expect(fileBytes()).toBeGreaterThan(before);
      const copied = new Database(t.path, { readonly: true });
      expect(copied.prepare('SELECT count(*) AS n FROM telemetry').get()).toEqual({ n: 6 });
      copied.close();
    } finally {
      await t.close();
    }
  });

  it('folds for a read only the device it reads, taking its rows out of the log, and every row once enough rows were gathered', async () => {
    const t = setup(8);
    try {
      t.db.prepare(`INSERT INTO devices (id, name, type, token, credentials_type, profile_id, created_time)
        VALUES ('device-2', 'd2', 'default', 'token-2', 'ACCESS_TOKEN', 'profile-1', 0)`).run();
      const sendAs = (deviceId: string, entries: KvEntry[]) =>
        new Promise<void>((resolve, reject) => t.group.writeBuffered({ deviceId, entries }, (error) => (error ? reject(error) : resolve()), undefined));
      const stored = (device: number) => t.db.prepare('SELECT count(*) FROM telemetry WHERE device = ?').pluck().get(device);
      const latestOf = (device: number) => t.db.prepare('SELECT ts, value FROM telemetry_latest WHERE device = ? ORDER BY key').all(device);
      await Promise.all([sendAs(DEVICE, [long('a', 1, 1), long('b', 1, 2)]), sendAs('device-2', [long('a', 1, 3)])]);
      // The read of the first device sees its rows; the second's are not folded.
      expect(await t.group.read(t.writer.foldScope(DEVICE), () => latestOf(1))).toEqual([{ ts: 1, value: 1 }, { ts: 1, value: 2 }]);
      expect([stored(1), stored(2), t.rows('telemetry_log')]).toEqual([2, 0, 1]);
      // A newer value of the first device at the same ts, then a read of it: the newest wins.
      await sendAs(DEVICE, [long('a', 1, 4)]);
      expect(await t.group.read(t.writer.foldScope(DEVICE), () => latestOf(1))).toEqual([{ ts: 1, value: 4 }, { ts: 1, value: 2 }]);
      // Eight rows since the last fold of every row: the next one runs before the next batch (the
      // latest values stay the newest).
      await Promise.all([sendAs('device-2', [long('b', 2, 5), long('c', 2, 6), long('d', 2, 7)]), sendAs(DEVICE, [long('c', 3, 8)])]);
      await sendAs('device-2', [long('e', 4, 9)]);
      expect([stored(1), stored(2), t.rows('telemetry_log')]).toEqual([3, 4, 1]);
      expect(latestOf(1)).toEqual([{ ts: 1, value: 4 }, { ts: 1, value: 2 }, { ts: 3, value: 8 }]);
      // A read across devices folds every row.
      expect(await t.group.read(t.writer.foldScope(null), () => t.rows('telemetry'))).toBe(8);
      expect(t.rows('telemetry_log')).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('folds a generation of every row in slices of devices, and no fold applies a row twice, before or after a crash', async () => {
    const t = setup(6, 2);
    const copy = join(tempDir(), 'mid-generation.db');
    try {
      for (const id of ['device-2', 'device-3']) {
        t.db.prepare(`INSERT INTO devices (id, name, type, token, credentials_type, profile_id, created_time)
          VALUES (?, ?, 'default', ?, 'ACCESS_TOKEN', 'profile-1', 0)`).run(id, id, `token-${id}`);
      }
      const sendAs = (deviceId: string, entries: KvEntry[]) =>
        new Promise<void>((resolve, reject) => t.group.writeBuffered({ deviceId, entries }, (error) => (error ? reject(error) : resolve()), undefined));
      const everyDevice = (entries: KvEntry[]) => Promise.all(['device-1', 'device-2', 'device-3'].map((id) => sendAs(id, entries)));
      const stored = () => [1, 2, 3].map((device) => t.db.prepare('SELECT count(*) FROM telemetry WHERE device = ?').pluck().get(device));
      const progress = () => t.db.prepare('SELECT last_rowid, last_device FROM telemetry_fold_progress').raw().all();
      // As a retention cleanup does: from the tables only, the log left as it is.
      const expire = (device: number) => t.group.write(() => t.db.prepare('DELETE FROM telemetry WHERE device = ? AND ts = 1').run(device));

      // Six rows, two a device (rowids 1-6): the generation is due before the next batch.
      await everyDevice([long('a', 1, 1), long('b', 1, 2)]);
      await sendAs('device-3', [long('c', 2, 3)]);
      // Its first slice folded device 1's rows, which stay in the log, applied, until the last slice.
      expect([stored(), t.rows('telemetry_log'), progress()]).toEqual([[2, 0, 0], 7, [[6, 1]]]);
      await expire(1);
      // The files as a kill -9 would leave them now, in the middle of the generation.
      copyFileSync(t.path, copy);
      copyFileSync(`${t.path}-wal`, `${copy}-wal`);
      // Two rows gathered since: the second slice (device 2's rows of the generation) before the next batch.
      await sendAs('device-2', [long('c', 3, 4)]);
      await sendAs('device-2', [long('d', 4, 5)]);
      expect([stored(), progress()]).toEqual([[0, 2, 0], [[6, 2]]]);
      await expire(2);
      // A read of device 2 folds its rows after the generation, not those the slice applied.
      expect(await t.group.read(t.writer.foldScope('device-2'), () => stored())).toEqual([0, 2, 0]);
      // A read across devices folds every row but those applied: nothing expired comes back.
      expect(await t.group.read(t.writer.foldScope(null), () => stored())).toEqual([0, 2, 3]);
      expect([t.rows('telemetry_log'), progress(), t.writer.books().folds]).toEqual([0, [], 1]);

      // A whole generation: its three slices, then its rows leave the log, and those gathered since stay.
      await everyDevice([long('e', 5, 6), long('f', 5, 7)]);
      // The first slice runs before any write: nothing was appended after the generation's rows.
      await t.group.write(() => undefined);
      // (The log was empty: its rowids start at 1 again.)
      expect([stored(), progress()]).toEqual([[2, 2, 3], [[6, 1]]]);
      // A read of device 3 takes the generation's last rows out of the log; the rows after them still
      // come after the generation's, and are not taken for applied ones.
      expect(await t.group.read(t.writer.foldScope('device-3'), () => stored())).toEqual([2, 2, 5]);
      await sendAs('device-1', [long('g', 6, 8)]);
      expect(await t.group.read(t.writer.foldScope('device-1'), () => stored())).toEqual([3, 2, 5]);
      await sendAs('device-1', [long('h', 7, 9)]);
      await sendAs('device-2', [long('g', 6, 10)]);
      expect([stored(), progress()]).toEqual([[3, 4, 5], [[6, 2]]]);
      await sendAs('device-3', [long('g', 6, 11)]);
      await sendAs('device-3', [long('h', 7, 12)]);
      expect([stored(), t.rows('telemetry_log'), progress(), t.writer.books().folds]).toEqual([[3, 4, 5], 4, [], 2]);
      expect(await t.group.read(t.writer.foldScope(null), () => stored())).toEqual([4, 5, 7]);
      expect(t.db.prepare('SELECT device, count(*), max(ts) FROM telemetry_latest GROUP BY device').raw().all()).toEqual([[1, 6, 7], [2, 7, 6], [3, 7, 7]]);
    } finally {
      await t.close();
    }
    // Opened after the crash, the store folds every row but those the first slice applied.
    const reopened = createSqliteStore(copy);
    await reopened.foldTelemetryLog();
    await reopened.close();
    const after = new Database(copy, { readonly: true });
    expect(after.prepare('SELECT device, count(*) FROM telemetry GROUP BY device').raw().all()).toEqual([[2, 2], [3, 3]]);
    expect(after.prepare('SELECT (SELECT count(*) FROM telemetry_log), (SELECT count(*) FROM telemetry_fold_progress)').raw().get()).toEqual([0, 0]);
    after.close();
  });

  it('fails the reads whose fold fails (committed or not), keeps its rows in the log, and folds them at the next read', async () => {
    const t = setup();
    try {
      t.db.exec("CREATE TRIGGER poison BEFORE INSERT ON telemetry WHEN NEW.value = 13 BEGIN SELECT RAISE(ABORT, 'poisoned row'); END");
      await t.send([long('a', 1, 13)]);
      await expect(t.count()).rejects.toThrow('poisoned row');
      expect([t.rows('telemetry_log'), t.rows('telemetry')]).toEqual([1, 0]);
      t.db.exec('DROP TRIGGER poison');
      expect(await t.latest()).toEqual([{ key: 'a', ts: 1, value: 13 }]);
      expect(t.rows('telemetry')).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('keeps what a crash left in the log when the store next opens the file, and folds it for a read', async () => {
    const dir = tempDir();
    const path = join(dir, 'crashed.db');
    const store = createSqliteStore(path);
    const device = newDevice({ name: 'd', profileId: store.defaultProfile().id });
    await store.write(() => store.insertDevice(device));
    await writeTelemetry(store, device.id, [long('a', 1, 1), long('b', 2, 2)]);
    // The files as a kill -9 would leave them now: the message is answered, so its log rows are synced.
    const copy = join(dir, 'copy.db');
    copyFileSync(path, copy);
    copyFileSync(`${path}-wal`, `${copy}-wal`);
    await store.close();
    const raw = new Database(copy);
    expect(raw.prepare('SELECT count(*) AS n FROM telemetry_log').get()).toEqual({ n: 2 });
    raw.close();
    const reopened = createSqliteStore(copy);
    try {
      expect(await reopened.readTelemetry(device.id, (s) => s.latest())).toEqual([long('a', 1, 1), long('b', 2, 2)]);
    } finally {
      await reopened.close();
    }
    const after = new Database(copy, { readonly: true });
    expect(after.prepare('SELECT (SELECT count(*) FROM telemetry_log) AS logged, (SELECT count(*) FROM telemetry) AS stored').get()).toEqual({ logged: 0, stored: 2 });
    after.close();
  });
});
