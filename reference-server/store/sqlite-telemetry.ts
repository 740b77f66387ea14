// Telemetry is a buffered write (store/group-commit.ts): a message's rows are gathered, and the rows
// of the messages between two other writes of a transaction go in together, with statements of up
// to MAX_ROWS rows. Rows are keyed by integers (the device's number, the key's id in telemetry_keys):
// integer keys make the rows ~30 bytes instead of ~75 (sqlite-schema.ts).
//
// The rows go first to an ingest log (telemetry_log, a rowid table: every batch appends at its end),
// which is what a message's COMMIT and fsync make durable; they are folded into the time-series
// tables (telemetry, telemetry_latest) later, many batches at a time. A table keyed by (device, key,
// ts) takes each device's rows at a place of their own: a batch of 50 messages from 50 devices
// dirtied ~150 pages, each written whole to the WAL at every COMMIT (two writes each) and again at
// the checkpoint, so a message from a fleet cost 3-10 times one from a single device (strace: 15
// pwrite64 per message with 100 devices, 0.25 with one). Appended, a batch dirties two or three pages;
// a fold of FOLD_ROWS rows dirties each device's page once for all its rows (store CPU per three-key
// message: 25 µs -> 5 with 100 devices, 21 -> 6 with 1,000, 2.2 -> 3.5 with one).
//
// A fold gives what writing the messages one by one in log order gives: of equal (device, key, ts)
// the later row stays; a key's latest value is its greatest ts, the later message on a tie, unless
// the stored latest value is newer. Whatever reads or changes the time series folds first
// (group-commit.ts read, and the store's deletes), so nothing acknowledged is ever missing from a read.
import type { Database, Statement } from 'better-sqlite3';
import { toCell } from './sqlite-values.js';
import { DeletedMeanwhile, type KvEntry } from './types.js';
import type { BufferedWrites } from './group-commit.js';

/** Rows per statement; longer runs take several (SQLite allows 32,766 parameters). */
const MAX_ROWS = 64;
const ROW = '(?, ?, ?, ?, ?)';
/** A gathered row: the device's number, the key (its text, then its id), ts, type, the value's cell. */
const COLUMNS = 5;
const KEY = 1;
/** Key ids kept in memory; past this the cache starts over (keys are the devices' own names). */
const KEY_CACHE_SIZE = 100_000;
/**
 * Rows appended between two folds, unless a read folds sooner. A fold's pages are shared by more rows
 * the more rows it takes (1,000 devices: 9.1 µs a message with folds of 20,000 rows, 7.0 with
 * 60,000), and it holds the next batch back while it runs (~40 ms for 20,000 rows from 1,000 devices).
 */
export const FOLD_ROWS = 20_000;

/** In SQL: the device's number and the key's id, for statements that take the device id and key text. */
export const DEVICE_NUM = (param: string) => `(SELECT num FROM devices WHERE id = ${param})`;
export const KEY_ID = (param: string) => `(SELECT id FROM telemetry_keys WHERE key = ${param})`;

/** Writes gathered rows and folds them, inside the caller's transaction, on one connection. */
export interface RowWriter {
  /** Appends rows of COLUMNS values with the key's text to the log; the array is changed (key ids replace the texts). */
  write(rows: unknown[]): void;
  /** Moves every row of the log into the time-series tables. */
  fold(): void;
  /** The transaction rolled back: key ids learnt inside it may be gone (and taken by other keys). */
  rolledBack(): void;
}

export function createRowWriter(db: Database): RowWriter {
  // Statements by row count, prepared on first use.
  const appends: Statement[] = [];
  const appendFor = (rows: number) =>
    (appends[rows] ??= db.prepare(`INSERT INTO telemetry_log (device, key, ts, type, value) VALUES ${Array(rows).fill(ROW).join(', ')}`));
  // In log order within each (device, key, ts), so that the later row replaces the earlier; sorted,
  // so that the B-tree is walked in order rather than at random.
  const foldRows = db.prepare(`INSERT OR REPLACE INTO telemetry (device, key, ts, type, value)
    SELECT device, key, ts, type, value FROM telemetry_log ORDER BY device, key, ts, rowid`);
  // Each key's greatest ts in the log; the row of the time series at that ts is the later one on a tie.
  const foldLatest = db.prepare(`INSERT INTO telemetry_latest (device, key, ts, type, value)
    SELECT t.device, t.key, t.ts, t.type, t.value FROM (SELECT device, key, max(ts) AS ts FROM telemetry_log GROUP BY device, key) w
    JOIN telemetry t ON t.device = w.device AND t.key = w.key AND t.ts = w.ts WHERE true
    ON CONFLICT (device, key) DO UPDATE SET ts=excluded.ts, type=excluded.type, value=excluded.value
    WHERE excluded.ts >= telemetry_latest.ts`);
  const emptyLog = db.prepare('DELETE FROM telemetry_log');
  const addKey = db.prepare('INSERT INTO telemetry_keys (key) VALUES (?) ON CONFLICT (key) DO NOTHING');
  const keyIdOf = db.prepare('SELECT id FROM telemetry_keys WHERE key = ?').pluck();
  const keyIds = new Map<string, number>();

  function keyId(key: string): number {
    let id = keyIds.get(key);
    if (id !== undefined) return id;
    addKey.run(key);
    id = keyIdOf.get(key) as number;
    if (keyIds.size >= KEY_CACHE_SIZE) keyIds.clear();
    keyIds.set(key, id);
    return id;
  }

  return {
    write(rows) {
      for (let at = KEY; at < rows.length; at += COLUMNS) rows[at] = keyId(rows[at] as string);
      for (let start = 0; start < rows.length; start += MAX_ROWS * COLUMNS) {
        const end = Math.min(rows.length, start + MAX_ROWS * COLUMNS);
        appendFor((end - start) / COLUMNS).run(start === 0 && end === rows.length ? rows : rows.slice(start, end));
      }
    },
    fold() {
      foldRows.run();
      foldLatest.run();
      emptyLog.run();
    },
    rolledBack() {
      keyIds.clear();
    },
  };
}

export interface TelemetryMessage {
  deviceId: string;
  entries: KvEntry[];
}

export interface TelemetryWriter extends BufferedWrites<TelemetryMessage> {
  /** The device is deleted (its number is looked up again, and found missing). */
  forgetDevice(deviceId: string): void;
}

/** `foldRows`: rows gathered between two folds (FOLD_ROWS; tests take fewer). */
export function createTelemetryWriter(db: Database, foldRows = FOLD_ROWS): TelemetryWriter {
  const numOf = db.prepare('SELECT num FROM devices WHERE id = ?').pluck();
  const logged = db.prepare('SELECT EXISTS (SELECT 1 FROM telemetry_log)').pluck();
  // A device keeps its number for life, and an id (a UUID) is never reused.
  const deviceNums = new Map<string, number>();
  const writer = createRowWriter(db);
  let rows: unknown[] = [];
  /** Rows gathered since the last fold (or failed fold). */
  let sinceFold = 0;

  function deviceNum(deviceId: string): number {
    let num = deviceNums.get(deviceId);
    if (num !== undefined) return num;
    num = numOf.get(deviceId) as number | undefined;
    if (num === undefined) throw new DeletedMeanwhile(`no device ${deviceId}`);
    deviceNums.set(deviceId, num);
    return num;
  }

  return {
    add({ deviceId, entries }) {
      // Everything that can throw comes first: a failing message gathers no row.
      const device = deviceNum(deviceId);
      // The one column SQLite could refuse (NOT NULL; NaN binds as NULL) is refused here, for this
      // message alone, rather than in the flush, which would fail the whole transaction.
      for (const e of entries) if (typeof e.ts !== 'number' || Number.isNaN(e.ts)) throw new TypeError(`telemetry ts ${e.ts} is not a number`);
      for (const e of entries) rows.push(device, e.key, e.ts, e.type, toCell(e));
      sinceFold += entries.length;
    },
    flush() {
      if (rows.length === 0) return;
      writer.write(rows);
      rows.length = 0;
    },
    take() {
      const taken = rows;
      rows = [];
      return taken;
    },
    logged: () => logged.get() === 1,
    foldDue: () => sinceFold >= foldRows,
    fold: writer.fold,
    folded() {
      sinceFold = 0;
    },
    forgetDevice: (deviceId) => deviceNums.delete(deviceId),
    rolledBack() {
      // Device numbers learnt inside the transaction may be gone, and key ids (createRowWriter).
      deviceNums.clear();
      writer.rolledBack();
      rows.length = 0;
    },
  };
}
