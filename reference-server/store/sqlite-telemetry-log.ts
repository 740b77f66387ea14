// The telemetry ingest log's SQL (sqlite-telemetry.ts says why there is a log), the same on the
// store's connection and the telemetry worker's: rows appended in batches, and folds that move them
// into the time-series tables (telemetry, telemetry_latest).
//
// The log is keyed by (part, seq): a row's part is its device number modulo LOG_PARTS and seq the
// order it was gathered in, so a batch appends at the end of each part (a page or two each), and the
// rows of a part, or of one device, are read without scanning the rest. A fold takes a part, a
// device (a read folds the device it reads), or everything.
//
// A fold gives what writing the messages one by one in gathered order gives: of equal (device, key,
// ts) the later row stays; a key's latest value is its greatest ts, the later message on a tie,
// unless the stored latest value is newer. A device's rows always fold together, in order.
import type { Database, Statement } from 'better-sqlite3';
import { LOG_PARTS } from './sqlite-schema.js';

/** Rows per statement; longer runs take several (SQLite allows 32,766 parameters). */
const MAX_ROWS = 64;
/** A gathered row: its part, seq, the device's number, the key (its text, then its id), ts, type, the value's cell. */
export const COLUMNS = 7;
export const KEY = 3;
/** Key ids kept in memory; past this the cache starts over (keys are the devices' own names). */
const KEY_CACHE_SIZE = 100_000;

/** What a fold takes from the log: one part, one device's rows, or every row. */
export type FoldScope = { part: number } | { device: number } | { all: true };

/** Writes gathered rows to the log and folds it, inside the caller's transaction, on one connection. */
export interface RowWriter {
  /** Appends rows of COLUMNS values with the key's text; the array is changed (key ids replace the texts). */
  write(rows: unknown[]): void;
  /** Moves the rows of `scope` from the log into the time-series tables. */
  fold(scope: FoldScope): void;
  /** The transaction rolled back: key ids learnt inside it may be gone (and taken by other keys). */
  rolledBack(): void;
}

/** The three statements of a fold, over the log rows that `where` selects (its parameters: @part, @device). */
function foldStatements(db: Database, where: string): Statement[] {
  return [
    // Sorted, so that the tables' B-trees are walked in order; by seq within equal (device, key, ts),
    // so that the later row replaces the earlier.
    db.prepare(`INSERT OR REPLACE INTO telemetry (device, key, ts, type, value)
      SELECT device, key, ts, type, value FROM telemetry_log WHERE ${where} ORDER BY device, key, ts, seq`),
    // Each key's greatest ts in the log: the row of the time series at that ts is the later one on a tie.
    db.prepare(`INSERT INTO telemetry_latest (device, key, ts, type, value)
      SELECT t.device, t.key, t.ts, t.type, t.value
      FROM (SELECT device, key, max(ts) AS ts FROM telemetry_log WHERE ${where} GROUP BY device, key) w
      JOIN telemetry t ON t.device = w.device AND t.key = w.key AND t.ts = w.ts WHERE true
      ON CONFLICT (device, key) DO UPDATE SET ts=excluded.ts, type=excluded.type, value=excluded.value
      WHERE excluded.ts >= telemetry_latest.ts`),
    db.prepare(`DELETE FROM telemetry_log WHERE ${where}`),
  ];
}

export function createRowWriter(db: Database): RowWriter {
  // Statements by row count, prepared on first use.
  const appends: Statement[] = [];
  const appendFor = (rows: number) => (appends[rows] ??= db.prepare(`INSERT INTO telemetry_log (part, seq, device, key, ts, type, value)
    VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?, ?)').join(', ')}`));
  const part = foldStatements(db, 'part = @part');
  const device = foldStatements(db, 'part = @part AND device = @device');
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

  const run = (statements: Statement[], params: { part: number; device?: number }) => {
    for (const statement of statements) statement.run(params);
  };

  return {
    write(rows) {
      for (let at = KEY; at < rows.length; at += COLUMNS) rows[at] = keyId(rows[at] as string);
      for (let start = 0; start < rows.length; start += MAX_ROWS * COLUMNS) {
        const end = Math.min(rows.length, start + MAX_ROWS * COLUMNS);
        appendFor((end - start) / COLUMNS).run(start === 0 && end === rows.length ? rows : rows.slice(start, end));
      }
    },
    fold(scope) {
      if ('device' in scope) return run(device, { part: scope.device % LOG_PARTS, device: scope.device });
      if ('part' in scope) return run(part, scope);
      for (let p = 0; p < LOG_PARTS; p++) run(part, { part: p });
    },
    rolledBack() {
      keyIds.clear();
    },
  };
}
