// The telemetry ingest log's SQL (sqlite-telemetry.ts says why there is a log), the same on the
// store's connection and the telemetry worker's: rows appended in batches at the end of a rowid table,
// and folds that move them into the time-series tables (telemetry, telemetry_latest).
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
import type { Database, Statement } from 'better-sqlite3';

/** Rows per statement; longer runs take several (SQLite allows 32,766 parameters). */
const MAX_ROWS = 64;
/** A gathered row: the device's number, the key (its text, then its id), ts, type, the value's cell. */
export const COLUMNS = 5;
const KEY = 1;
/** Key ids kept in memory; past this the cache starts over (keys are the devices' own names). */
const KEY_CACHE_SIZE = 100_000;

/** In SQL: the device's number and the key's id, for statements that take the device id and key text. */
export const DEVICE_NUM = (param: string) => `(SELECT num FROM devices WHERE id = ${param})`;
export const KEY_ID = (param: string) => `(SELECT id FROM telemetry_keys WHERE key = ${param})`;

/** What a fold takes from the log: one device's rows (left in the log), or every row. */
export type FoldScope = { device: number } | { all: true };

/** Rows a delete is about to remove: of these keys, startTs <= ts < endTs. */
export interface FoldDrop {
  keys: string[];
  startTs: number;
  endTs: number;
}

/** Writes gathered rows to the log and folds it, inside the caller's transaction, on one connection. */
export interface RowWriter {
  /** Appends rows of COLUMNS values with the key's text; the array is changed (key ids replace the texts). */
  write(rows: unknown[]): void;
  /**
   * Moves the rows of `scope` out of the log into the time-series tables; of one device's, the rows
   * in `drop` count for the latest values only (a delete of them follows: they need no room).
   */
  fold(scope: FoldScope, drop?: FoldDrop): void;
  /** The transaction rolled back: key ids learnt inside it may be gone (and taken by other keys). */
  rolledBack(): void;
}

/** A fold's rows and latest values over the rows of `source` (the log, or one device's rows moved out of it). */
function foldStatements(db: Database, source: string): Statement[] {
  return [
    // Sorted, so that the tables' B-trees are walked in order; by rowid within equal (device, key, ts),
    // so that the later row replaces the earlier.
    db.prepare(`INSERT OR REPLACE INTO telemetry (device, key, ts, type, value)
      SELECT l.device, l.key, l.ts, l.type, l.value FROM ${source} l JOIN devices d ON d.num = l.device
      ORDER BY l.device, l.key, l.ts, l.rowid`),
    // Each key's greatest ts in the log: the row of the time series at that ts is the later one on a tie.
    db.prepare(`INSERT INTO telemetry_latest (device, key, ts, type, value)
      SELECT t.device, t.key, t.ts, t.type, t.value
      FROM (SELECT device, key, max(ts) AS ts FROM ${source} GROUP BY device, key) w
      JOIN telemetry t ON t.device = w.device AND t.key = w.key AND t.ts = w.ts WHERE true
      ON CONFLICT (device, key) DO UPDATE SET ts=excluded.ts, type=excluded.type, value=excluded.value
      WHERE excluded.ts >= telemetry_latest.ts`),
  ];
}

export function createRowWriter(db: Database): RowWriter {
  // Statements by row count, prepared on first use.
  const appends: Statement[] = [];
  const appendFor = (rows: number) => (appends[rows] ??= db.prepare(`INSERT INTO telemetry_log (device, key, ts, type, value)
    VALUES ${Array(rows).fill('(?, ?, ?, ?, ?)').join(', ')}`));
  const all = [...foldStatements(db, 'telemetry_log'), db.prepare('DELETE FROM telemetry_log')];
  // A device's rows, log order kept in the rowid (a temporary table: temp_store=MEMORY).
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS telemetry_fold (device INTEGER NOT NULL, key INTEGER NOT NULL, ts INTEGER NOT NULL,
    type TEXT NOT NULL, value)`);
  const take = [
    db.prepare(`INSERT INTO temp.telemetry_fold (rowid, device, key, ts, type, value)
      SELECT rowid, device, key, ts, type, value FROM telemetry_log WHERE device = ?`),
    db.prepare('DELETE FROM telemetry_log WHERE device = ?'),
  ];
  const taken = {
    // The latest values from the rows themselves (the greatest ts, the later row on a tie), so that
    // rows a delete drops still count for them, as they would have written one by one.
    latest: db.prepare(`INSERT INTO telemetry_latest (device, key, ts, type, value)
      SELECT device, key, ts, type, value FROM (SELECT f.device, f.key, f.ts, f.type, f.value,
        row_number() OVER (PARTITION BY f.device, f.key ORDER BY f.ts DESC, f.rowid DESC) AS n
        FROM temp.telemetry_fold f JOIN devices d ON d.num = f.device) WHERE n = 1
      ON CONFLICT (device, key) DO UPDATE SET ts=excluded.ts, type=excluded.type, value=excluded.value
      WHERE excluded.ts >= telemetry_latest.ts`),
    drop: db.prepare(`DELETE FROM temp.telemetry_fold WHERE key = ${KEY_ID('?')} AND ts >= ? AND ts < ?`),
    rows: foldStatements(db, 'temp.telemetry_fold')[0],
    clear: db.prepare('DELETE FROM temp.telemetry_fold'),
  };
  const addKey = db.prepare('INSERT INTO telemetry_keys (key) VALUES (?) ON CONFLICT (key) DO NOTHING');
  const keyIdOf = db.prepare(`SELECT ${KEY_ID('?')}`).pluck();
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
      // The values go as arguments, not as one array: better-sqlite3 reads an array's elements through
      // V8's generic property lookup, which cost a third of the append (0.8 -> 0.57 µs a 3-row message).
      for (let start = 0; start < rows.length; start += MAX_ROWS * COLUMNS) {
        const end = Math.min(rows.length, start + MAX_ROWS * COLUMNS);
        appendFor((end - start) / COLUMNS).run(...(start === 0 && end === rows.length ? rows : rows.slice(start, end)));
      }
    },
    fold(scope, drop) {
      if (!('device' in scope)) {
        for (const statement of all) statement.run();
        return;
      }
      for (const statement of take) statement.run(scope.device);
      taken.latest.run();
      if (drop) for (const key of drop.keys) taken.drop.run(key, drop.startTs, drop.endTs);
      taken.rows.run();
      taken.clear.run();
    },
    rolledBack() {
      keyIds.clear();
    },
  };
}
