// A batch of nothing but telemetry is committed by the telemetry worker on its own connection
// (store/telemetry-committer.ts, telemetry-worker.ts), answered once that thread has committed it
// (synchronous=FULL: with its WAL synced); a batch with any other write runs on the event loop,
// after the worker's batch.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createGroupCommit, type Offload } from '../store/group-commit.js';
import { openDatabase } from '../store/sqlite-connection.js';
import { migrate } from '../store/sqlite-schema.js';
import { createTelemetryCommitter } from '../store/telemetry-committer.js';
import { createTelemetryWriter, type TelemetryMessage } from '../store/sqlite-telemetry.js';
import { tempDir } from './helpers.js';
import type { KvEntry } from '../store/types.js';

const DEVICE = 'device-1';

/** A migrated file database with one device, its group commit with the real worker, and what went to the worker. */
function setup() {
  const path = join(tempDir(), 'worker.db');
  const db = openDatabase(path);
  migrate(db, 'profile-1', 0);
  db.prepare(`INSERT INTO devices (id, name, type, token, credentials_type, profile_id, created_time)
    VALUES (?, 'd', 'default', 'token', 'ACCESS_TOKEN', 'profile-1', 0)`).run(DEVICE);
  const committer = createTelemetryCommitter(path);
  const offloaded: number[] = [];
  const offload: Offload = {
    get ready() {
      return committer.ready;
    },
    commit(rows, done) {
      offloaded.push(rows.length / 5);
      committer.commit(rows, done);
    },
  };
  const group = createGroupCommit<TelemetryMessage>(db, createTelemetryWriter(db), offload);
  const send = (entries: KvEntry[]) =>
    new Promise<void>((resolve, reject) => group.writeBuffered({ deviceId: DEVICE, entries }, (error) => (error ? reject(error) : resolve()), undefined));
  const latest = () => db.prepare(`SELECT k.key, l.ts, l.value FROM telemetry_latest l JOIN telemetry_keys k ON k.id = l.key ORDER BY k.key`).all();
  const count = () => (db.prepare('SELECT count(*) AS n FROM telemetry').get() as { n: number }).n;
  const close = async () => {
    await group.close();
    await committer.close();
    db.close();
  };
  return { path, db, group, committer, offloaded, send, latest, count, close };
}

const long = (key: string, ts: number, value: number): KvEntry => ({ key, ts, type: 'LONG', value });

describe('the telemetry worker', () => {
  it('commits a batch of nothing but telemetry on its own connection, visible to the store once answered', async () => {
    const t = setup();
    try {
      await Promise.all([t.send([long('a', 1, 1), long('b', 1, 2)]), t.send([long('a', 2, 3)])]);
      expect(t.offloaded).toEqual([3]);
      expect(t.latest()).toEqual([{ key: 'a', ts: 2, value: 3 }, { key: 'b', ts: 1, value: 2 }]);
      expect(t.count()).toBe(3);
    } finally {
      await t.close();
    }
    // Synced before it was answered: the file holds the rows after the connections closed.
    const reopened = new Database(t.path, { readonly: true });
    expect(reopened.prepare('SELECT count(*) AS n FROM telemetry').get()).toEqual({ n: 3 });
    reopened.close();
  });

  it('runs a batch with another write on the event loop, in order with its telemetry', async () => {
    const t = setup();
    try {
      await t.send([long('a', 1, 1)]);
      const sent = t.send([long('a', 5, 2)]);
      const removed = t.group.write(() => t.db.prepare('DELETE FROM telemetry_latest').run());
      await Promise.all([sent, removed]);
      expect(t.offloaded).toEqual([1]);
      expect(t.latest()).toEqual([]);
      expect(t.count()).toBe(2);
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
      expect(t.count()).toBe(0);
      // 'real' takes the id 'ghost' had in the worker's rolled-back transaction; 'ghost' gets its own.
      await t.send([long('real', 2, 2)]);
      await t.send([long('ghost', 3, 3)]);
      expect(t.latest()).toEqual([{ key: 'ghost', ts: 3, value: 3 }, { key: 'real', ts: 2, value: 2 }]);
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
      expect(t.latest()).toEqual([{ key: 'a', ts: 2, value: 2 }]);
    } finally {
      await t.close();
    }
  });
});
