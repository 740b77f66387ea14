// The telemetry ingest log's SQL (sqlite-telemetry.ts says why there is a log), the same on the
// store's connection and the telemetry worker's: rows appended in batches at the end of a rowid table,
// and folds that move them into the time-series tables (telemetry, telemetry_latest).
//
// A fold gives what writing the messages one by one in log order gives: of equal (device, key, ts)
// the later row stays; a key's latest value is its greatest ts, the later message on a tie, unless
// the stored latest value is newer. A fold of every row empties the log; the fold of one device
// (before a read of it) leaves its rows there, to be folded again with the rest, which changes
// nothing: each fold takes all the rows of the devices it covers, in log order. Rows of a device
// deleted meanwhile are dropped (device numbers are never reused: sqlite-schema.ts).
import type { Database, Statement } from 'better-sqlite3';

/** Rows per statement; longer runs take several (SQLite allows 32,766 parameters). */
const MAX_ROWS = 64;
/** A gathered row: the device's number, the key (its text, then its id), ts, type, the value's cell. */
export const COLUMNS = 5;
const KEY = 1;
/** Key ids kept in memory; past this the cache starts over (keys are the devices' own names). */
const KEY_CACHE_SIZE = 100_000;

/** What a fold takes from the log: one device's rows (left in the log), or every row. */
export type FoldScope = { device: number } | { all: true };

/** Writes gathered rows to the log and folds it, inside the caller's transaction, on one connection. */
export interface RowWriter {
  /** Appends rows of COLUMNS values with the key's text; the array is changed (key ids replace the texts). */
  write(rows: unknown[]): void;
  /** Moves the rows of `scope` from the log into the time-series tables. */
  fold(scope: FoldScope): void;
  /** The transaction rolled back: key ids learnt inside it may be gone (and taken by other keys). */
  rolledBack(): void;
}

/** A fold's rows and latest values over the log rows that `where` selects (its parameter: @device). */
function foldStatements(db: Database, where: string): Statement[] {
  return [
    // Sorted, so that the tables' B-trees are walked in order; by rowid within equal (device, key, ts),
    // so that the later row replaces the earlier.
    db.prepare(`INSERT OR REPLACE INTO telemetry (device, key, ts, type, value)
      SELECT l.device, l.key, l.ts, l.type, l.value FROM telemetry_log l JOIN devices d ON d.num = l.device
      WHERE ${where} ORDER BY l.device, l.key, l.ts, l.rowid`),
    // Each key's greatest ts in the log: the row of the time series at that ts is the later one on a tie.
    db.prepare(`INSERT INTO telemetry_latest (device, key, ts, type, value)
      SELECT t.device, t.key, t.ts, t.type, t.value
      FROM (SELECT device, key, max(ts) AS ts FROM telemetry_log l WHERE ${where} GROUP BY device, key) w
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
  const all = [...foldStatements(db, 'true'), db.prepare('DELETE FROM telemetry_log')];
  const device = foldStatements(db, 'l.device = @device');
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
    fold(scope) {
      if ('device' in scope) for (const statement of device) statement.run(scope);
      else for (const statement of all) statement.run();
    },
    rolledBack() {
      keyIds.clear();
    },
  };
}
