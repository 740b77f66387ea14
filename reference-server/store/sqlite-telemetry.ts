// Telemetry is a buffered write (store/group-commit.ts): a message's rows are gathered, and the rows
// of the messages between two other writes of a transaction go in together, with statements of up
// to MAX_ROWS rows. A statement run costs about as much as two rows: a three-key message takes ~2 µs
// of SQLite instead of ~3 with a statement of its own. A batch of nothing but telemetry goes in on
// the telemetry worker's connection (telemetry-worker.ts), the same way. Rows are keyed by integers
// (the device's number, the key's id in telemetry_keys): integer keys make the rows ~30 bytes instead
// of ~75, and the B-tree compares integers (sqlite-schema.ts).
//
// The latest value of each key is written once per run of rows, not once per message, with the
// outcome of updating it message by message in order: the greatest ts wins, the later on a tie.
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
const TS = 2;
/** Key ids kept in memory; past this the cache starts over (keys are the devices' own names). */
const KEY_CACHE_SIZE = 100_000;

/** In SQL: the device's number and the key's id, for statements that take the device id and key text. */
export const DEVICE_NUM = (param: string) => `(SELECT num FROM devices WHERE id = ${param})`;
export const KEY_ID = (param: string) => `(SELECT id FROM telemetry_keys WHERE key = ${param})`;

/** Writes gathered rows inside the caller's transaction, on one connection. */
export interface RowWriter {
  /** Rows of COLUMNS values with the key's text; the array is changed (key ids replace the texts). */
  write(rows: unknown[]): void;
  /** The transaction rolled back: key ids learnt inside it may be gone (and taken by other keys). */
  rolledBack(): void;
}

export function createRowWriter(db: Database): RowWriter {
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
  const addKey = db.prepare('INSERT INTO telemetry_keys (key) VALUES (?) ON CONFLICT (key) DO NOTHING');
  const keyIdOf = db.prepare('SELECT id FROM telemetry_keys WHERE key = ?').pluck();
  const keyIds = new Map<string, number>();
  /** The latest row of each device and key: its start in the rows. */
  const winners = new Map<string, number>();
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

  /** Runs flat (COLUMNS values a row) through statements of up to MAX_ROWS rows. */
  function run(statementFor: (rows: number) => Statement, flat: unknown[]): void {
    for (let start = 0; start < flat.length; start += MAX_ROWS * COLUMNS) {
      const end = Math.min(flat.length, start + MAX_ROWS * COLUMNS);
      statementFor((end - start) / COLUMNS).run(start === 0 && end === flat.length ? flat : flat.slice(start, end));
    }
  }

  return {
    write(rows) {
      for (let at = 0; at < rows.length; at += COLUMNS) {
        const key = keyId(rows[at + KEY] as string);
        rows[at + KEY] = key;
        const slot = `${rows[at] as number} ${key}`;
        const before = winners.get(slot);
        if (before === undefined || (rows[at + TS] as number) >= (rows[before + TS] as number)) winners.set(slot, at);
      }
      run(insertFor, rows);
      params.length = 0;
      for (const at of winners.values()) for (let c = 0; c < COLUMNS; c++) params.push(rows[at + c]);
      winners.clear();
      run(latestFor, params);
    },
    rolledBack() {
      keyIds.clear();
      winners.clear();
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

export function createTelemetryWriter(db: Database): TelemetryWriter {
  const numOf = db.prepare('SELECT num FROM devices WHERE id = ?').pluck();
  // A device keeps its number for life, and an id (a UUID) is never reused.
  const deviceNums = new Map<string, number>();
  const writer = createRowWriter(db);
  let rows: unknown[] = [];

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
    forgetDevice: (deviceId) => deviceNums.delete(deviceId),
    rolledBack() {
      // Device numbers learnt inside the transaction may be gone, and key ids (createRowWriter).
      deviceNums.clear();
      writer.rolledBack();
      rows.length = 0;
    },
  };
}
