// Telemetry is a buffered write (store/group-commit.ts): a message's rows are gathered, and the rows
// of the messages between two other writes of a transaction go in together, with statements of up
// to 64 rows. Rows are keyed by integers (the device's number, the key's id in telemetry_keys):
// integer keys make the rows ~30 bytes instead of ~75 (sqlite-schema.ts).
//
// The rows go first to an ingest log (sqlite-telemetry-log.ts), which is what a message's COMMIT
// makes durable; they are folded into the time-series tables (telemetry, telemetry_latest) later, many
// batches at a time. A table keyed by (device, key, ts) takes each device's rows at a place of their
// own: a batch of 50 messages from 50 devices dirtied ~150 pages, each written whole to the WAL at
// every COMMIT (two writes each) and again at the checkpoint, so that a message from a fleet cost 2-3
// times one from a single device (strace: 15 pwrite64 per message with 100 devices, 0.25 with one).
// Appended, a batch dirties a page or two per log part; a fold dirties a device's page once for all
// the rows it takes of it.
//
// Folds run when FOLD_ROWS rows have been gathered since the last (the part with the most rows), and
// when a read needs them (the device it reads; every part for reads across devices): whatever reads
// the time series folds first (group-commit.ts read, the store's deletes), so a read sees every
// acknowledged message. This side of the store keeps the books: which devices may have rows waiting,
// and how many rows each part holds.
import type { Database } from 'better-sqlite3';
import { toCell } from './sqlite-values.js';
import { DeletedMeanwhile, type KvEntry } from './types.js';
import type { BufferedWrites } from './group-commit.js';
import { createRowWriter, type FoldScope } from './sqlite-telemetry-log.js';
import { LOG_PARTS } from './sqlite-schema.js';

/**
 * Rows gathered between two automatic folds (each takes one part: ~1/LOG_PARTS of the rows of the
 * last LOG_PARTS folds). A fold holds the next batch back while it runs; its pages are shared by more
 * rows the more rows of each device it takes.
 */
export const FOLD_ROWS = 20_000;

/** In SQL: the device's number and the key's id, for statements that take the device id and key text. */
export const DEVICE_NUM = (param: string) => `(SELECT num FROM devices WHERE id = ${param})`;
export const KEY_ID = (param: string) => `(SELECT id FROM telemetry_keys WHERE key = ${param})`;

export interface TelemetryMessage {
  deviceId: string;
  entries: KvEntry[];
}

/** A fold's scope as the store asks for it: one device (by id), or every device (null). */
export type ReadScope = string | null;

export interface TelemetryWriter extends BufferedWrites<TelemetryMessage, FoldScope> {
  /** The scope of a fold that covers what a read of `scope` reads. */
  foldScope(scope: ReadScope): FoldScope;
  /** The device is deleted (its number is looked up again, and found missing). */
  forgetDevice(deviceId: string): void;
}

/**
 * `foldRows`: rows gathered between two automatic folds (FOLD_ROWS; tests take fewer). The log must
 * be empty (the store folds it when it opens): the books start empty.
 */
export function createTelemetryWriter(db: Database, foldRows = FOLD_ROWS): TelemetryWriter {
  const numOf = db.prepare('SELECT num FROM devices WHERE id = ?').pluck();
  // A device keeps its number for life, and an id (a UUID) is never reused.
  const deviceNums = new Map<string, number>();
  const writer = createRowWriter(db);
  let rows: unknown[] = [];
  let seq = (db.prepare('SELECT ifnull(max(seq), 0) FROM telemetry_log').pluck().get() as number) + 1;
  /** Rows gathered since the last automatic fold. */
  let sinceFold = 0;
  /** Per part: the rows gathered since it was last folded, and the devices they came from. */
  const partRows = new Array<number>(LOG_PARTS).fill(0);
  const waiting = Array.from({ length: LOG_PARTS }, () => new Set<number>());

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
      const part = device % LOG_PARTS;
      for (const e of entries) rows.push(part, seq++, device, e.key, e.ts, e.type, toCell(e));
      partRows[part] += entries.length;
      waiting[part].add(device);
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
    dueFold() {
      if (sinceFold < foldRows) return undefined;
      let fullest = 0;
      for (let p = 1; p < LOG_PARTS; p++) if (partRows[p] > partRows[fullest]) fullest = p;
      return { part: fullest };
    },
    foldScope(scope) {
      if (scope === null) return { all: true };
      const device = deviceNums.get(scope) ?? (numOf.get(scope) as number | undefined);
      // A device that does not exist has nothing in the log: a fold of no row.
      return { device: device ?? 0 };
    },
    needsFold(scope) {
      if ('device' in scope) return waiting[scope.device % LOG_PARTS].has(scope.device);
      if ('part' in scope) return waiting[scope.part].size > 0;
      return waiting.some((devices) => devices.size > 0);
    },
    fold: writer.fold,
    folded(scope, ok) {
      if ('device' in scope) {
        if (ok) waiting[scope.device % LOG_PARTS].delete(scope.device);
        return;
      }
      // An automatic fold, even one that failed, starts the count afresh (no retry at every batch).
      sinceFold = 0;
      if (!ok) return;
      for (const p of 'part' in scope ? [scope.part] : waiting.keys()) {
        partRows[p] = 0;
        waiting[p].clear();
      }
    },
    forgetDevice: (deviceId) => deviceNums.delete(deviceId),
    rolledBack() {
      // Device numbers learnt inside the transaction may be gone, and key ids (sqlite-telemetry-log.ts).
      deviceNums.clear();
      writer.rolledBack();
      rows.length = 0;
    },
  };
}
