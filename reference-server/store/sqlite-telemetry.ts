// Telemetry rows go in with one multi-row statement per message: a statement run costs about as
// much as two rows, so a message of three keys takes one run instead of three. Rows are keyed by
// integers (the device's number, the key's id in telemetry_keys): integer keys make the rows ~30
// bytes instead of ~75, and the B-tree compares integers (sqlite-schema.ts).
//
// The latest value of each key is written once per transaction, not once per message: a device that
// sends several messages within one group commit (store/group-commit.ts) updates its latest row
// once, just before COMMIT. The outcome is that of updating it per message in order.
import type { Database, Statement } from 'better-sqlite3';
import { toCell } from './sqlite-values.js';
import { DeletedMeanwhile, type KvEntry } from './types.js';
import type { TransactionHooks } from './group-commit.js';

/** Rows per statement; longer messages take several (SQLite allows 32,766 parameters). */
const MAX_ROWS = 32;
const ROW = '(?, ?, ?, ?, ?)';
const COLUMNS = 5;
/** Key ids kept in memory; past this the cache starts over (keys are the devices' own names). */
const KEY_CACHE_SIZE = 100_000;

/** In SQL: the device's number and the key's id, for statements that take the device id and key text. */
export const DEVICE_NUM = (param: string) => `(SELECT num FROM devices WHERE id = ${param})`;
export const KEY_ID = (param: string) => `(SELECT id FROM telemetry_keys WHERE key = ${param})`;

export interface TelemetryBatch {
  deviceId: string;
  entries: KvEntry[];
}

export interface TelemetryWriter extends TransactionHooks {
  /** The write fn of store.writeTelemetry(): its latest values go in when the transaction commits. */
  insert(batch: TelemetryBatch): void;
  /** The device is deleted (its number is looked up again, and found missing). */
  forgetDevice(deviceId: string): void;
}

/** Whether a message's rows go in with one statement (then its write needs no savepoint). */
export const isOneStatement = (entries: KvEntry[]) => entries.length <= MAX_ROWS;

/** A latest-value row: device, key, ts, type, value. */
type Row = [number, number, number, string, unknown];

export function createTelemetryWriter(db: Database): TelemetryWriter {
  // Statements by row count, prepared on first use.
  const inserts: Statement[] = [];
  const latest: Statement[] = [];
  const values = (rows: number) => Array(rows).fill(ROW).join(', ');
  const insertFor = (rows: number) =>
    (inserts[rows] ??= db.prepare(`INSERT OR REPLACE INTO telemetry (device, key, ts, type, value) VALUES ${values(rows)}`));
  const latestFor = (rows: number) =>
    (latest[rows] ??= db.prepare(`INSERT INTO telemetry_latest (device, key, ts, type, value) VALUES ${values(rows)}
      ON CONFLICT (device, key) DO UPDATE SET ts=excluded.ts, type=excluded.type, value=excluded.value
      WHERE excluded.ts >= telemetry_latest.ts`));
  const numOf = db.prepare('SELECT num FROM devices WHERE id = ?').pluck();
  // A device keeps its number for life, and an id (a UUID) is never reused.
  const deviceNums = new Map<string, number>();
  const addKey = db.prepare('INSERT INTO telemetry_keys (key) VALUES (?) ON CONFLICT (key) DO NOTHING');
  const keyIdOf = db.prepare('SELECT id FROM telemetry_keys WHERE key = ?').pluck();
  const keyIds = new Map<string, number>();
  const params: unknown[] = [];
  /** Latest rows of the current write, and of the writes kept in this transaction by device and key. */
  const written: Row[] = [];
  const pending = new Map<string, Row>();

  function deviceNum(deviceId: string): number {
    let num = deviceNums.get(deviceId);
    if (num !== undefined) return num;
    num = numOf.get(deviceId) as number | undefined;
    if (num === undefined) throw new DeletedMeanwhile(`no device ${deviceId}`);
    deviceNums.set(deviceId, num);
    return num;
  }

  function keyId(key: string): number {
    let id = keyIds.get(key);
    if (id !== undefined) return id;
    addKey.run(key);
    id = keyIdOf.get(key) as number;
    if (keyIds.size >= KEY_CACHE_SIZE) keyIds.clear();
    keyIds.set(key, id);
    return id;
  }

  /** Runs rows (flat, COLUMNS values each) through statements of up to MAX_ROWS rows. */
  function run(statementFor: (rows: number) => Statement, flat: unknown[]): void {
    const total = flat.length / COLUMNS;
    for (let start = 0; start < total; start += MAX_ROWS) {
      const rows = Math.min(MAX_ROWS, total - start);
      statementFor(rows).run(rows === total ? flat : flat.slice(start * COLUMNS, (start + rows) * COLUMNS));
    }
  }

  return {
    insert({ deviceId, entries }) {
      const device = deviceNum(deviceId);
      params.length = 0;
      for (const e of entries) {
        const row: Row = [device, keyId(e.key), e.ts, e.type, toCell(e)];
        params.push(...row);
        written.push(row);
      }
      run(insertFor, params);
    },
    written(ok) {
      if (!ok) {
        // A key id learnt inside the rolled-back write may be gone (and taken by the next new key).
        keyIds.clear();
      } else {
        // In order, as per-message upserts would run: the greatest ts wins, the later row on a tie.
        for (const row of written) {
          const slot = `${row[0]} ${row[1]}`;
          const before = pending.get(slot);
          if (!before || row[2] >= before[2]) pending.set(slot, row);
        }
      }
      written.length = 0;
    },
    committing() {
      if (pending.size === 0) return;
      params.length = 0;
      for (const row of pending.values()) params.push(...row);
      pending.clear();
      run(latestFor, params);
    },
    forgetDevice: (deviceId) => deviceNums.delete(deviceId),
    rolledBack() {
      keyIds.clear();
      pending.clear();
      written.length = 0;
    },
  };
}
