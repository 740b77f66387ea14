// The latest values a fold of every row leaves (store/sqlite-telemetry-log.ts), whether they come from
// the writer's books or from grouping the log in SQL: what writing the messages one by one gives.
// Two connections to one file, as the telemetry worker's and the store's.
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../store/sqlite-connection.js';
import { migrate } from '../store/sqlite-schema.js';
import { createRowWriter, type FoldDrop, type RowWriter } from '../store/sqlite-telemetry-log.js';
import { createRowBuffer } from '../store/telemetry-rows.js';
import type { ValueType } from '../store/types.js';
import { tempDir } from './helpers.js';

type Row = [device: number, key: string, ts: number, value: number | string];

const opened: Database[] = [];

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** A migrated file with devices d1 and d2 (numbers 1 and 2). */
function newStoreFile(): string {
  const path = join(tempDir(), 'latest.db');
  const db = openDatabase(path);
  migrate(db, 'profile-1', 0);
  const insert = db.prepare(`INSERT INTO devices (id, name, type, token, credentials_type, profile_id, created_time)
    VALUES (?, ?, 'default', ?, 'ACCESS_TOKEN', 'profile-1', 0)`);
  for (const id of ['d1', 'd2']) insert.run(id, id, `t-${id}`);
  db.close();
  return path;
}

/** A connection to the file and its row writer, each call of its helpers a transaction of its own. */
function connect(path: string) {
  const db = openDatabase(path);
  opened.push(db);
  const writer: RowWriter = createRowWriter(db);
  const inTransaction = (fn: () => void) => {
    db.exec('BEGIN IMMEDIATE');
    try {
      fn();
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      writer.rolledBack();
      throw error;
    }
  };
  return {
    db,
    writer,
    append(rows: Row[]) {
      const buffer = createRowBuffer();
      for (const [device, key, ts, value] of rows) buffer.push(device, key, ts, typeof value === 'number' ? 'LONG' : 'STRING', value);
      inTransaction(() => writer.write(buffer.take()));
    },
    foldAll: () => inTransaction(() => writer.fold({ all: true })),
    foldDevice: (device: number, drop?: FoldDrop) => inTransaction(() => writer.fold({ device }, drop)),
    latest: () =>
      db.prepare(`SELECT l.device, k.key, l.ts, l.value FROM telemetry_latest l JOIN telemetry_keys k ON k.id = l.key ORDER BY 1, 2`).raw().all(),
    series: () =>
      db.prepare(`SELECT t.device, k.key, t.ts, t.value FROM telemetry t JOIN telemetry_keys k ON k.id = t.key ORDER BY 1, 2, 3`).raw().all(),
  };
}

describe('the latest values of a fold of every row', () => {
  it('take the later of rows with equal ts, within a batch, across batches and across folds', () => {
    const worker = connect(newStoreFile());
    worker.append([[1, 'k', 10, 1], [1, 'k', 10, 2]]);
    worker.append([[1, 'k', 10, 3], [2, 'k', 7, 1]]);
    worker.foldAll();
    expect(worker.latest()).toEqual([[1, 'k', 10, 3], [2, 'k', 7, 1]]);
    worker.append([[1, 'k', 10, 4]]);
    worker.foldAll();
    expect(worker.latest()).toEqual([[1, 'k', 10, 4], [2, 'k', 7, 1]]);
    expect(worker.series()).toEqual([[1, 'k', 10, 4], [2, 'k', 7, 1]]);
  });

  it('keep the greatest ts when older rows come after newer ones, in one fold or a later one', () => {
    const worker = connect(newStoreFile());
    worker.append([[1, 'k', 20, 'new'], [1, 'j', 5, 'a']]);
    worker.append([[1, 'k', 10, 'old'], [1, 'j', 6, 'b']]);
    worker.foldAll();
    expect(worker.latest()).toEqual([[1, 'j', 6, 'b'], [1, 'k', 20, 'new']]);
    worker.append([[1, 'k', 15, 'older'], [1, 'j', 6, 'c']]);
    worker.foldAll();
    expect(worker.latest()).toEqual([[1, 'j', 6, 'c'], [1, 'k', 20, 'new']]);
    expect(worker.series()).toEqual([[1, 'j', 5, 'a'], [1, 'j', 6, 'c'], [1, 'k', 10, 'old'], [1, 'k', 15, 'older'], [1, 'k', 20, 'new']]);
  });

  it('bring back no latest value that a delete on another connection removed after folding the device', () => {
    const path = newStoreFile();
    const worker = connect(path);
    const store = connect(path);
    worker.append([[1, 'k', 10, 'ten'], [2, 'k', 1, 'one']]);
    worker.foldAll();
    // An older value waits in the log; a delete of [8, 12) with its latest value folds the device first.
    worker.append([[1, 'k', 5, 'five'], [2, 'k', 2, 'two']]);
    store.foldDevice(1, { keys: ['k'], startTs: 8, endTs: 12 });
    store.db.exec(`DELETE FROM telemetry WHERE device = 1 AND ts >= 8 AND ts < 12;
      DELETE FROM telemetry_latest WHERE device = 1 AND ts >= 8 AND ts < 12`);
    worker.foldAll();
    expect(worker.latest()).toEqual([[2, 'k', 2, 'two']]);
    expect(worker.series()).toEqual([[1, 'k', 5, 'five'], [2, 'k', 1, 'one'], [2, 'k', 2, 'two']]);
    // The books are good again after that fold.
    worker.append([[1, 'k', 3, 'three'], [2, 'k', 3, 'three']]);
    worker.foldAll();
    expect(worker.latest()).toEqual([[1, 'k', 3, 'three'], [2, 'k', 3, 'three']]);
  });

  it('leave none for a device deleted while its rows waited, nor for the device folded on its own', () => {
    const path = newStoreFile();
    const worker = connect(path);
    worker.append([[1, 'k', 10, 'a'], [2, 'k', 10, 'b']]);
    worker.foldDevice(2);
    connect(path).db.exec("DELETE FROM devices WHERE id = 'd1'");
    worker.append([[2, 'k', 11, 'c']]);
    worker.foldAll();
    expect(worker.latest()).toEqual([[2, 'k', 11, 'c']]);
    expect(worker.series()).toEqual([[2, 'k', 10, 'b'], [2, 'k', 11, 'c']]);
  });

  it('count the rows a stop left in the log, and the rows another connection appended', () => {
    const path = newStoreFile();
    const before = connect(path);
    before.append([[1, 'k', 100, 'before'], [1, 'j', 1, 'before']]);
    before.db.close();
    opened.splice(0);
    const worker = connect(path);
    worker.append([[1, 'k', 50, 'after'], [2, 'k', 1, 'after']]);
    worker.foldAll();
    expect(worker.latest()).toEqual([[1, 'j', 1, 'before'], [1, 'k', 100, 'before'], [2, 'k', 1, 'after']]);
    // The store's connection appends (the worker has gone) and folds: the worker's books knew none of it.
    const store = connect(path);
    worker.append([[2, 'k', 2, 'worker']]);
    store.append([[2, 'k', 3, 'store'], [1, 'k', 200, 'store']]);
    store.foldAll();
    expect(store.latest()).toEqual([[1, 'j', 1, 'before'], [1, 'k', 200, 'store'], [2, 'k', 3, 'store']]);
  });

  it('are those of every row in the log after a fold that rolled back, or a batch that did', () => {
    const worker = connect(newStoreFile());
    worker.append([[1, 'k', 10, 'a'], [2, 'k', 10, 'a']]);
    expect(() =>
      worker.db.transaction(() => {
        worker.writer.fold({ all: true });
        throw new Error('the fold fails');
      })(),
    ).toThrow('the fold fails');
    worker.writer.rolledBack();
    expect(worker.latest()).toEqual([]);
    const buffer = createRowBuffer();
    buffer.push(1, 'k', 99, 'LONG', 99);
    expect(() =>
      worker.db.transaction(() => {
        worker.writer.write(buffer.take());
        throw new Error('the batch fails');
      })(),
    ).toThrow('the batch fails');
    worker.writer.rolledBack();
    worker.append([[1, 'k', 11, 'b'], [2, 'j', 1, 'b']]);
    worker.foldAll();
    expect(worker.latest()).toEqual([[1, 'k', 11, 'b'], [2, 'j', 1, 'b'], [2, 'k', 10, 'a']]);
  });
});

describe('a fold of every row from the books', () => {
  it('moves each row of batches longer than one statement once, the later of equal (device, key, ts) staying', () => {
    const worker = connect(newStoreFile());
    // 3 batches of 150 rows (three statements each), devices and keys interleaved, every (device, key,
    // ts) written three times with different values: one by one, the last write of each stays.
    const expected = new Map<string, Row>();
    for (let batch = 0; batch < 3; batch++) {
      const rows: Row[] = [];
      for (let i = 0; i < 150; i++) {
        const row: Row = [1 + (i % 2), `k${i % 3}`, (i * 7) % 25, `${batch}-${i}`];
        rows.push(row);
        expected.set(`${row[0]} ${row[1]} ${row[2]}`, row);
      }
      worker.append(rows);
    }
    worker.foldAll();
    const byOrder = (a: Row, b: Row) => a[0] - b[0] || a[1].localeCompare(b[1]) || a[2] - b[2];
    expect(worker.series()).toEqual([...expected.values()].sort(byOrder));
    expect(worker.db.prepare('SELECT count(*) FROM telemetry_log').pluck().get()).toBe(0);
  });

  it('moves long runs of one device\'s rows, and runs around another device\'s, as written one by one', () => {
    const worker = connect(newStoreFile());
    // Device 1's rows come in runs of consecutive rowids longer than a run holds (63) and than a
    // statement (64 rows), each (key, ts) three times in a run; device 2's in runs of 1 to 5 between.
    const expected = new Map<string, Row>();
    const latest = new Map<string, Row>();
    const keep = (row: Row) => {
      expected.set(`${row[0]} ${row[1]} ${row[2]}`, row);
      const pair = `${row[0]} ${row[1]}`;
      if (!latest.has(pair) || row[2] >= latest.get(pair)![2]) latest.set(pair, row);
    };
    for (let batch = 0; batch < 4; batch++) {
      const rows: Row[] = [];
      for (let i = 0; i < 200; i++) rows.push([1, `k${i % 2}`, batch * 100 + Math.floor(i / 6), `${batch}-${i}`]);
      for (let i = 0; i <= batch; i++) rows.push([2, 'k', batch * 10 + i, `${batch}-${i}`]);
      rows.forEach(keep);
      worker.append(rows);
      // A read of device 2 folds it on its own, out of the books; the next fold of every row goes on from them.
      if (batch === 1) worker.foldDevice(2);
    }
    worker.foldAll();
    const byOrder = (a: Row, b: Row) => a[0] - b[0] || a[1].localeCompare(b[1]) || a[2] - b[2];
    expect(worker.series()).toEqual([...expected.values()].sort(byOrder));
    expect(worker.latest()).toEqual([...latest.values()].sort(byOrder));
    expect(worker.db.prepare('SELECT count(*) FROM telemetry_log').pluck().get()).toBe(0);
  });
});

describe('every kind of fold', () => {
  it('gives each row and latest value the type it was written with (the log keeps its code)', () => {
    const typed: [ValueType, number | string][] = [['BOOLEAN', 1], ['LONG', 7], ['DOUBLE', 1.5], ['STRING', 's'], ['JSON', '{"a":1}']];
    const path = newStoreFile();
    const appendTyped = (writer: RowWriter, device: number, ts: number) => {
      const buffer = createRowBuffer();
      for (const [type, value] of typed) buffer.push(device, type, ts, type, value);
      writer.write(buffer.take());
    };
    const worker = connect(path);
    // Device 1 from the books; then device 2 on its own, and rows a stop left (the SQL fold), of both.
    appendTyped(worker.writer, 1, 1);
    worker.foldAll();
    appendTyped(worker.writer, 2, 1);
    worker.foldDevice(2);
    appendTyped(worker.writer, 1, 2);
    appendTyped(worker.writer, 2, 2);
    worker.db.close();
    opened.splice(0);
    connect(path).foldAll();
    const reader = connect(path);
    const types = (table: string) =>
      reader.db.prepare(`SELECT t.device, k.key, t.ts, t.type, t.value FROM ${table} t JOIN telemetry_keys k ON k.id = t.key ORDER BY 1, 3, 2`).raw().all();
    const rows = (device: number, ts: number) =>
      typed.map(([type, value]) => [device, type, ts, type, value]).sort((a, b) => String(a[1]).localeCompare(String(b[1])));
    expect(types('telemetry')).toEqual([...rows(1, 1), ...rows(1, 2), ...rows(2, 1), ...rows(2, 2)]);
    expect(types('telemetry_latest')).toEqual([...rows(1, 2), ...rows(2, 2)]);
  });
});
