// Telemetry is a buffered write (store/group-commit.ts): a message's rows are gathered, and the rows
// of the messages between two other writes of a transaction go in together, with statements of up
// to MAX_ROWS rows. A statement run costs about as much as two rows: a three-key message takes ~2 µs
// of SQLite instead of ~3 with a statement of its own. Rows are keyed by integers (the device's
// number, the key's id in telemetry_keys): integer keys make the rows ~30 bytes instead of ~75, and
// the B-tree compares integers (sqlite-schema.ts).
//
// The latest value of each key is written once per flush, not once per message, with the outcome of
// updating it message by message in order: the greatest ts wins, the later message on a tie.
import type { Database, Statement } from 'better-sqlite3';
import { toCell } from './sqlite-values.js';
import { DeletedMeanwhile, type KvEntry } from './types.js';
import type { BufferedWrites } from './group-commit.js';

/** Rows per statement; longer runs take several (SQLite allows 32,766 parameters). */
const MAX_ROWS = 64;
const ROW = '(?, ?, ?, ?, ?)';
const COLUMNS = 5;
const TS = 2;
/** Key ids kept in memory; past this the cache starts over (keys are the devices' own names). */
const KEY_CACHE_SIZE = 100_000;

/** In SQL: the device's number and the key's id, for statements that take the device id and key text. */
export const DEVICE_NUM = (param: string) => `(SELECT num FROM devices WHERE id = ${param})`;
export const KEY_ID = (param: string) => `(SELECT id FROM telemetry_keys WHERE key = ${param})`;

export interface TelemetryMessage {
  deviceId: string;
  entries: KvEntry[];
}

export interface TelemetryWriter extends BufferedWrites<TelemetryMessage> {
  /** The device is deleted (its number is looked up again, and found missing). */
  forgetDevice(deviceId: string): void;
}

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
  /** The gathered rows, COLUMNS values each. */
  const rows: unknown[] = [];
  /** The latest row of each device and key among them: its start in `rows`. */
  const winners = new Map<string, number>();
  const params: unknown[] = [];
  /** The key ids of the message being added. */
  const keys: number[] = [];

  function deviceNum(deviceId: string): number {
    let num = deviceNums.get(deviceId);
    if (num !== undefined) return num;
    num = numOf.get(deviceId) as number | undefined;
    if (num === undefined) throw new DeletedMeanwhile(`no device ${deviceId}`);
    deviceNums.set(deviceId, num);
    return num;
  }

  // A new key's id goes in at once: an unused dictionary entry is harmless, and it stays unless the
  // whole transaction rolls back (rolledBack() below).
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
    add({ deviceId, entries }) {
      // Everything that can throw comes first: a failing message gathers no row.
      const device = deviceNum(deviceId);
      keys.length = 0;
      for (const e of entries) {
        // The one column SQLite could refuse (NOT NULL; NaN binds as NULL) is refused here, for this
        // message alone, rather than in the flush, which would fail the whole transaction.
        if (typeof e.ts !== 'number' || Number.isNaN(e.ts)) throw new TypeError(`telemetry ts ${e.ts} is not a number`);
        keys.push(keyId(e.key));
      }
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        const at = rows.length;
        rows.push(device, keys[i], e.ts, e.type, toCell(e));
        const slot = `${device} ${keys[i]}`;
        const before = winners.get(slot);
        if (before === undefined || e.ts >= (rows[before + TS] as number)) winners.set(slot, at);
      }
    },
    flush() {
      if (rows.length === 0) return;
      run(insertFor, rows);
      params.length = 0;
      for (const at of winners.values()) for (let c = 0; c < COLUMNS; c++) params.push(rows[at + c]);
      run(latestFor, params);
      rows.length = 0;
      winners.clear();
    },
    forgetDevice: (deviceId) => deviceNums.delete(deviceId),
    rolledBack() {
      // Key ids and device numbers learnt inside the transaction may be gone.
      keyIds.clear();
      deviceNums.clear();
      rows.length = 0;
      winners.clear();
    },
  };
}
