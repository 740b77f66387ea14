// Telemetry rows go in with one multi-row statement per table per message: a statement run costs
// about as much as two rows, so a message of three keys takes two runs instead of six. Rows are
// keyed by integers (the device's number, the key's id in telemetry_keys): integer keys make the
// rows ~30 bytes instead of ~75, and the B-tree compares integers (sqlite-schema.ts).
import type { Database, Statement } from 'better-sqlite3';
import { toCell } from './sqlite-values.js';
import { DeletedMeanwhile, type KvEntry } from './types.js';

/** Rows per statement; longer messages take several (SQLite allows 32,766 parameters). */
const MAX_ROWS = 32;
const ROW = '(?, ?, ?, ?, ?)';
/** Key ids kept in memory; past this the cache starts over (keys are the devices' own names). */
const KEY_CACHE_SIZE = 100_000;

/** In SQL: the device's number and the key's id, for statements that take the device id and key text. */
export const DEVICE_NUM = (param: string) => `(SELECT num FROM devices WHERE id = ${param})`;
export const KEY_ID = (param: string) => `(SELECT id FROM telemetry_keys WHERE key = ${param})`;

export interface TelemetryInsert {
  insert(deviceId: string, entries: KvEntry[]): void;
  /**
   * Called when a transaction or savepoint rolls back: a key id the cache learnt inside it may be gone
   * (and reused by the next key), so the cache is dropped.
   */
  rolledBack(): void;
}

export function createTelemetryInsert(db: Database): TelemetryInsert {
  // Statements by row count, prepared on first use.
  const inserts: Statement[] = [];
  const latest: Statement[] = [];
  const values = (rows: number) => Array(rows).fill(ROW).join(', ');
  const insertFor = (rows: number) =>
    (inserts[rows] ??= db.prepare(`INSERT OR REPLACE INTO telemetry (device, key, ts, type, value) VALUES ${values(rows)}`));
  // Rows run in order, so a key twice in one message ends as it would with one statement per row.
  const latestFor = (rows: number) =>
    (latest[rows] ??= db.prepare(`INSERT INTO telemetry_latest (device, key, ts, type, value) VALUES ${values(rows)}
      ON CONFLICT (device, key) DO UPDATE SET ts=excluded.ts, type=excluded.type, value=excluded.value
      WHERE excluded.ts >= telemetry_latest.ts`));
  const deviceNum = db.prepare('SELECT num FROM devices WHERE id = ?').pluck();
  const addKey = db.prepare('INSERT INTO telemetry_keys (key) VALUES (?) ON CONFLICT (key) DO NOTHING');
  const keyIdOf = db.prepare('SELECT id FROM telemetry_keys WHERE key = ?').pluck();
  const keyIds = new Map<string, number>();
  const params: unknown[] = [];

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
    insert(deviceId, entries) {
      const device = deviceNum.get(deviceId) as number | undefined;
      if (device === undefined) throw new DeletedMeanwhile(`no device ${deviceId}`);
      for (let start = 0; start < entries.length; start += MAX_ROWS) {
        const rows = Math.min(MAX_ROWS, entries.length - start);
        params.length = 0;
        for (let i = start; i < start + rows; i++) {
          const e = entries[i];
          params.push(device, keyId(e.key), e.ts, e.type, toCell(e));
        }
        insertFor(rows).run(params);
        latestFor(rows).run(params);
      }
    },
    rolledBack: () => keyIds.clear(),
  };
}
