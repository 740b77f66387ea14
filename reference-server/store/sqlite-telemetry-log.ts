// The telemetry ingest log's SQL (sqlite-telemetry.ts says why there is a log), the same on the
// store's connection and the telemetry worker's: rows appended in batches at the end of a rowid table,
// and folds that move them into the time-series tables (telemetry, telemetry_latest). The rows come
// packed (telemetry-rows.ts), which is how a batch crosses to the worker.
//
// A fold gives what writing the messages one by one in log order gives: of equal (device, key, ts)
// the later row stays; a key's latest value is its greatest ts, the later message on a tie, unless
// the stored latest value is newer. Every fold takes the rows it folds out of the log, so the log
// holds exactly the acknowledged rows that are not in the tables yet: nothing a fold already applied
// is applied again after a delete or a retention cleanup (sqlite-retention.ts). The fold of one device
// (before a read of it) first moves its rows to a table in memory and out of the log (the log has no
// index by device: two passes over it), then folds them from there, so that a delete of a full store's
// rows needs no room for the rows it deletes. Rows of a device deleted meanwhile
// are dropped (device numbers are never reused: sqlite-schema.ts).
//
// A fold of every row works from the writer's books when it can (row-writer-books.ts): the rows it
// appended since its last fold of every row, by device in log order (runs of consecutive rowids), and
// for each (device, key) pair the row of its greatest ts. The fold then inserts the rows in that order,
// which walks telemetry's B-tree as sorting the log would, without the sort (a third of the insert's
// instructions), and takes each pair's latest value from its row by rowid instead of grouping the
// whole log (a quarter of a fold's time). The books are trusted only while the log holds as many rows
// as they count: rows a stop or a crash left, rows another connection appended (the store's own after
// the worker has gone) or folded (a delete's fold on the store's connection), and a rolled-back batch
// all break that count, and the fold then sorts and groups the log in SQL as before. (Rows appended
// and rows folded by another connection between two folds could cancel out; the store's connection
// appends only once the worker has gone, or in a TTL write that folds the device in the same
// savepoint.)
//
// A fold of every row that is due may go in slices (a generation, sqlite-telemetry.ts says why): the
// first slice takes the rows in the log then, and each slice folds the rows of a range of devices in a
// transaction of its own, so that batches go on between them. Until the last slice, whose COMMIT takes
// the generation's rows out of the log, the rows of the devices folded so far stay in it, applied:
// telemetry_fold_progress says which (rowid <= last_rowid and device <= last_device), and every fold
// leaves them out. Slices need the books; without them, a slice folds every row.
import type { Database, Statement } from 'better-sqlite3';
import { CELL_KIND, NUMS, TEXT_CELL, TYPES, type PackedRows } from './telemetry-rows.js';
import { createRowWriterBooks, type RowWriterBooks } from './row-writer-books.js';
import { RUN } from './rowid-runs.js';

/** Rows per statement; longer runs take several (SQLite allows 32,766 parameters). */
const MAX_ROWS = 64;
/** Rows the books hold before they first grow. */
const BOOKED_ROWS = 1024;
/** Key ids kept in memory; past this the cache starts over (keys are the devices' own names). */
const KEY_CACHE_SIZE = 100_000;

/** In SQL: the device's number and the key's id, for statements that take the device id and key text. */
export const DEVICE_NUM = (param: string) => `(SELECT num FROM devices WHERE id = ${param})`;
export const KEY_ID = (param: string) => `(SELECT id FROM telemetry_keys WHERE key = ${param})`;

/** Slice `slice` (1-based) of a generation of `slices`. */
export interface SliceScope {
  slice: number;
  slices: number;
}

/** What a fold takes from the log: one device's rows, every row, or a slice of a generation. */
export type FoldScope = { device: number } | { all: true } | SliceScope;

/** Rows a delete is about to remove: of these keys, startTs <= ts < endTs. */
export interface FoldDrop {
  keys: string[];
  startTs: number;
  endTs: number;
}

/** Writes gathered rows to the log and folds it, inside the caller's transaction, on one connection. */
export interface RowWriter {
  /** Appends packed rows (telemetry-rows.ts) to the log, the key texts replaced by their ids. */
  write(rows: PackedRows): void;
  /**
   * Moves the rows of `scope` out of the log into the time-series tables (a slice's stay in it, applied,
   * until its generation's last slice); of one device's, the rows in `drop` count for the latest values
   * only (a delete of them follows: they need no room).
   */
  fold(scope: FoldScope, drop?: FoldDrop): void;
  /** The transaction rolled back: key ids learnt inside it may be gone (and taken by other keys). */
  rolledBack(): void;
}

/**
 * In SQL: the type's name of a log row's type code. The log keeps the code (its index in TYPES): an
 * integer binds and stores for less than a name (a fifth of an append's instructions).
 */
const TYPE_NAME = (code: string) => `CASE ${code} ${TYPES.map((type, i) => `WHEN ${i} THEN '${type}'`).join(' ')} END`;
/** The columns of a time-series row from a row of the log, or of one device's moved out of it (`l`). */
const ROW_OF_LOG = `l.device, l.key, l.ts, ${TYPE_NAME('l.type')}, l.value`;
/** A fold's rows into the time series. */
const INSERT_ROWS = `INSERT OR REPLACE INTO telemetry (device, key, ts, type, value) SELECT ${ROW_OF_LOG}`;

/** In SQL: a row of the log (`l`) that a generation's slices did not apply; parameters: telemetry_fold_progress's columns. */
const NOT_APPLIED = (l: string) => `NOT (${l}.rowid <= ? AND ${l}.device <= ?)`;
/** The parameters of NOT_APPLIED when no generation is under way. */
const NONE_APPLIED: [number, number] = [0, 0];

/** A fold's rows from `source` (the log, or one device's rows moved out of it) into the time series. */
function foldRows(db: Database, source: string, where = 'true'): Statement {
  // By device, so that the tables' B-trees are walked in order (a device's few keys sit on one page or
  // two); in log order within a device, so that the later of equal (device, key, ts) replaces the
  // earlier. Sorting by key and ts as well costs 9 % more and walks the same pages.
  return db.prepare(`${INSERT_ROWS} FROM ${source} l JOIN devices d ON d.num = l.device WHERE ${where} ORDER BY l.device, l.rowid`);
}

/** How a fold's latest values go into telemetry_latest: a key's value moves only to a ts as late or later. */
const UPSERT_LATEST = `ON CONFLICT (device, key) DO UPDATE SET ts=excluded.ts, type=excluded.type, value=excluded.value
  WHERE excluded.ts >= telemetry_latest.ts`;

/**
 * `soleAppender`: no other connection appends to the log while this writer lives (the telemetry
 * worker's; the store's connection appends once the worker has gone, and in a TTL write that folds the
 * device in the same savepoint), so that its books know every row a fold of one device takes.
 */
export function createRowWriter(db: Database, soleAppender = false): RowWriter {
  // Statements by row count, prepared on first use.
  const appends: Statement[] = [];
  const appendFor = (rows: number) => (appends[rows] ??= db.prepare(`INSERT INTO telemetry_log (device, key, ts, type, value)
    VALUES ${Array(rows).fill('(?, ?, ?, ?, ?)').join(', ')}`));
  const all = {
    rows: foldRows(db, 'telemetry_log', NOT_APPLIED('l')),
    // Each key's greatest ts in the log: the row of the time series at that ts is the later one on a tie.
    latest: db.prepare(`INSERT INTO telemetry_latest (device, key, ts, type, value)
      SELECT t.device, t.key, t.ts, t.type, t.value
      FROM (SELECT device, key, max(ts) AS ts FROM telemetry_log l WHERE ${NOT_APPLIED('l')} GROUP BY device, key) w
      JOIN telemetry t ON t.device = w.device AND t.key = w.key AND t.ts = w.ts WHERE true
      ${UPSERT_LATEST}`),
  };
  const clearLog = db.prepare('DELETE FROM telemetry_log');
  const progress = {
    applied: db.prepare('SELECT last_rowid, last_device FROM telemetry_fold_progress').raw(),
    set: db.prepare('INSERT OR REPLACE INTO telemetry_fold_progress (rowid, last_rowid, last_device) VALUES (1, ?, ?)'),
    clear: db.prepare('DELETE FROM telemetry_fold_progress'),
    // A generation's rows are the log's first: its rowids up to the last.
    dropGeneration: db.prepare('DELETE FROM telemetry_log WHERE rowid <= ?'),
  };
  /** The parameters of NOT_APPLIED: what a generation's slices applied. */
  const applied = () => (progress.applied.get() as [number, number] | undefined) ?? NONE_APPLIED;
  const logRows = db.prepare('SELECT count(*) FROM telemetry_log').pluck();
  // Log rows by the books' runs (a JSON array), by device: json_each is the outer loop (CROSS JOIN) and
  // yields the array in order, each run a range of rowids. The runs are only those of devices that
  // exist (`existing`).
  const booked = `FROM json_each(?) j CROSS JOIN telemetry_log l
    ON l.rowid >= j.value / ${RUN} AND l.rowid < j.value / ${RUN} + j.value % ${RUN}`;
  // Of the devices in a JSON array, those that exist: once a device per fold instead of once a row.
  const existing = db.prepare('SELECT num FROM devices WHERE num IN (SELECT value FROM json_each(?)) ORDER BY num').pluck();
  const bookedFold = {
    // Every row, each device's in log order: foldRows' order without its sort (an ORDER BY would sort again).
    rows: db.prepare(`${INSERT_ROWS} ${booked}`),
    // The row of each (device, key)'s greatest ts, the later on a tie: what the rows leave in telemetry.
    latest: db.prepare(`INSERT INTO telemetry_latest (device, key, ts, type, value)
      SELECT ${ROW_OF_LOG} ${booked} WHERE true ${UPSERT_LATEST}`),
  };
  // A device's rows, log order kept in the rowid (a temporary table: temp_store=MEMORY).
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS telemetry_fold (device INTEGER NOT NULL, key INTEGER NOT NULL, ts INTEGER NOT NULL,
    type INTEGER NOT NULL, value)`);
  // A device's rows: found by the books' runs (the rowid named by another device's row skipped), else
  // by a pass over the log (two: the log has no index by device; ~70 ms a fold of one device with
  // 1,000,000 rows in the log, against ~0.1 by the runs).
  const take = {
    rows: db.prepare(`INSERT INTO temp.telemetry_fold (rowid, device, key, ts, type, value)
      SELECT rowid, device, key, ts, type, value FROM telemetry_log l WHERE device = ? AND ${NOT_APPLIED('l')}`),
    clear: db.prepare('DELETE FROM telemetry_log WHERE device = ?'),
    bookedRows: db.prepare(`INSERT INTO temp.telemetry_fold (rowid, device, key, ts, type, value)
      SELECT l.rowid, l.device, l.key, l.ts, l.type, l.value ${booked} WHERE l.device = ? AND ${NOT_APPLIED('l')}`),
    bookedClear: db.prepare(`DELETE FROM telemetry_log WHERE rowid IN (SELECT l.rowid ${booked} WHERE l.device = ?)`),
    // A new row takes the rowid after the log's greatest: had the take removed the generation's last
    // row and every row after it, new rows would take the generation's rowids, and count as applied.
    // A row of no device (numbers start at 1; folds drop it) keeps the last rowid until the generation ends.
    keepGenerationEnd: db.prepare(`INSERT INTO telemetry_log (rowid, device, key, ts, type, value)
      SELECT last_rowid, 0, 0, 0, 0, NULL FROM telemetry_fold_progress WHERE last_rowid > (SELECT ifnull(max(rowid), 0) FROM telemetry_log)`),
  };
  const taken = {
    // The latest values from the rows themselves (the greatest ts, the later row on a tie), so that
    // rows a delete drops still count for them, as they would have written one by one.
    latest: db.prepare(`INSERT INTO telemetry_latest (device, key, ts, type, value)
      SELECT device, key, ts, type, value FROM (SELECT f.device, f.key, f.ts, ${TYPE_NAME('f.type')} AS type, f.value,
        row_number() OVER (PARTITION BY f.device, f.key ORDER BY f.ts DESC, f.rowid DESC) AS n
        FROM temp.telemetry_fold f JOIN devices d ON d.num = f.device) WHERE n = 1
      ${UPSERT_LATEST}`),
    drop: db.prepare(`DELETE FROM temp.telemetry_fold WHERE key = ${KEY_ID('?')} AND ts >= ? AND ts < ?`),
    rows: foldRows(db, 'temp.telemetry_fold'),
    clear: db.prepare('DELETE FROM temp.telemetry_fold'),
  };
  const addKey = db.prepare('INSERT INTO telemetry_keys (key) VALUES (?) ON CONFLICT (key) DO NOTHING');
  const keyIdOf = db.prepare(`SELECT ${KEY_ID('?')}`).pluck();
  const keyIds = new Map<string, number>();

  /** Undefined while the log may hold rows this writer did not append (it held some when it started). */
  let books: RowWriterBooks | undefined = db.prepare('SELECT 1 FROM telemetry_log LIMIT 1').get() === undefined ? createRowWriterBooks(BOOKED_ROWS) : undefined;
  /** The books before the fold of every row just run, should its transaction roll back. */
  let beforeFold: RowWriterBooks | undefined;
  /** The last rowid of the generation under way. */
  let generationEnd = 0;

  function keyId(key: string): number {
    let id = keyIds.get(key);
    if (id !== undefined) return id;
    addKey.run(key);
    id = keyIdOf.get(key) as number;
    if (keyIds.size >= KEY_CACHE_SIZE) keyIds.clear();
    keyIds.set(key, id);
    return id;
  }

  const existingOf = (devices: number[]) => existing.all(JSON.stringify(devices)) as number[];

  /** Every row not yet applied: from the books' runs when they know the log, else sorted and grouped in SQL. */
  function foldEvery(): void {
    const rows = books?.rows();
    if (books && rows === logRows.get()) {
      const runs = books.runs(existingOf);
      bookedFold.rows.run(runs.rows);
      bookedFold.latest.run(runs.latest);
    } else {
      all.rows.run(...applied());
      all.latest.run(...applied());
    }
    clearLog.run();
    progress.clear.run();
    beforeFold = books;
    books = createRowWriterBooks(Math.max(BOOKED_ROWS, rows ?? 0));
  }

  /** The slice of the generation under way, or its first (which starts it). */
  function foldSlice({ slice, slices }: SliceScope): void {
    if (slice === 1 && books?.nextSlice === 0 && books.rows() === logRows.get()) generationEnd = books.startGeneration(slices);
    // Not the slice the books expect (books lost with a rolled-back slice, or a log they do not know):
    // every row, which leaves nothing for the generation's other slices.
    if (!books || books.nextSlice !== slice) return foldEvery();
    const runs = books.slice(existingOf);
    bookedFold.rows.run(runs.rows);
    bookedFold.latest.run(runs.latest);
    if (books.nextSlice > 0) {
      progress.set.run(generationEnd, runs.lastDevice);
      return;
    }
    progress.dropGeneration.run(generationEnd);
    progress.clear.run();
    books.endGeneration();
  }

  return {
    write({ nums, keys, text, others }) {
      beforeFold = undefined;
      const ids = keys.map(keyId);
      let at = 0;
      for (let start = 0; start < nums.length; start += MAX_ROWS * NUMS) {
        const count = Math.min(MAX_ROWS, (nums.length - start) / NUMS);
        const args: unknown[] = [];
        for (let n = start; n < start + count * NUMS; n += NUMS) {
          const code = nums[n + 2];
          const cell = nums[n + 3];
          const key = ids[nums[n + 4]];
          const kind = code & CELL_KIND;
          const value = kind === 0 ? cell : kind === TEXT_CELL ? text.slice(at, (at += cell)) : others[cell];
          args.push(nums[n], key, nums[n + 1], code & ~CELL_KIND, value);
        }
        // The values go as arguments, not as one array: better-sqlite3 reads an array's elements through
        // V8's generic property lookup, which cost a third of the append (0.8 -> 0.57 µs a 3-row message).
        const { lastInsertRowid } = appendFor(count).run(...args);
        if (!books) continue;
        // Each row took the rowid after the greatest in the table, so the statement's rows have the
        // `count` rowids up to its last. Five arguments a row: device, key, ts, type, value.
        const first = Number(lastInsertRowid) - count + 1;
        for (let i = 0, a = 0; i < count && books; i++, a += 5) {
          if (!books.add(args[a] as number, args[a + 1] as number, args[a + 2] as number, first + i)) books = undefined;
        }
      }
    },
    fold(scope, drop) {
      beforeFold = undefined;
      if ('slice' in scope) return foldSlice(scope);
      if ('all' in scope) return foldEvery();
      // Every row of the device leaves the log, whoever appended it; those a generation applied are not folded again.
      const runs = books?.take(scope.device);
      if (soleAppender && runs !== undefined) {
        take.bookedRows.run(runs, scope.device, ...applied());
        take.bookedClear.run(runs, scope.device);
      } else {
        take.rows.run(scope.device, ...applied());
        take.clear.run(scope.device);
      }
      take.keepGenerationEnd.run();
      taken.latest.run();
      if (drop) for (const key of drop.keys) taken.drop.run(key, drop.startTs, drop.endTs);
      taken.rows.run();
      taken.clear.run();
    },
    rolledBack() {
      keyIds.clear();
      // A fold of every row rolled back leaves the log as the books knew it before; anything else
      // leaves it as they do not know.
      books = beforeFold;
      beforeFold = undefined;
    },
  };
}
