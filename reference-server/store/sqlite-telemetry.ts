// Telemetry rows go in with one multi-row statement per table per message: a statement run costs
// about as much as two rows, so a message of three keys takes two runs instead of six.
import type { Database, Statement } from 'better-sqlite3';
import { toCell } from './sqlite-values.js';
import type { KvEntry } from './types.js';

/** Rows per statement; longer messages take several (SQLite allows 32,766 parameters). */
const MAX_ROWS = 32;
const ROW = '(?, ?, ?, ?, ?)';

export function createTelemetryInsert(db: Database): (deviceId: string, entries: KvEntry[]) => void {
  // Statements by row count, prepared on first use.
  const inserts: Statement[] = [];
  const latest: Statement[] = [];
  const values = (rows: number) => Array(rows).fill(ROW).join(', ');
  const insertFor = (rows: number) =>
    (inserts[rows] ??= db.prepare(`INSERT OR REPLACE INTO telemetry (device_id, key, ts, type, value) VALUES ${values(rows)}`));
  // Rows run in order, so a key twice in one message ends as it would with one statement per row.
  const latestFor = (rows: number) =>
    (latest[rows] ??= db.prepare(`INSERT INTO telemetry_latest (device_id, key, ts, type, value) VALUES ${values(rows)}
      ON CONFLICT (device_id, key) DO UPDATE SET ts=excluded.ts, type=excluded.type, value=excluded.value
      WHERE excluded.ts >= telemetry_latest.ts`));
  const params: unknown[] = [];

  return (deviceId, entries) => {
    for (let start = 0; start < entries.length; start += MAX_ROWS) {
      const rows = Math.min(MAX_ROWS, entries.length - start);
      params.length = 0;
      for (let i = start; i < start + rows; i++) {
        const e = entries[i];
        params.push(deviceId, e.key, e.ts, e.type, toCell(e));
      }
      insertFor(rows).run(params);
      latestFor(rows).run(params);
    }
  };
}
