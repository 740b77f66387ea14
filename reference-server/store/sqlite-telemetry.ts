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
// Appended, a batch dirties a page or two; a fold dirties a device's page once for all the rows it
// takes of it.
//
// Once enough rows wait (foldRowsFor) every row is folded; past SLICE_ROWS rows, in slices (a
// generation): the first slice takes the rows in the log then, and folds the rows of the first of its
// ranges of devices; the next slices follow, each once as many rows were gathered again as the
// generation's rows a slice. A fold dirties the last pages of each device's series about once, however
// many of its rows it takes: a fleet's fold of every row dirtied about every page of telemetry (as many
// WAL frames a fold as the table had pages, at 10,000 devices), so the more rows a fold takes of each
// device, the fewer pages a row. Slices keep the batches that wait behind each as short as a fold of
// SLICE_ROWS rows. A read folds first what it reads
// (the device, or every device for reads across them): group-commit.ts read, and the store's deletes
// and writes with a TTL of their own, so that a read sees every acknowledged message and a delete or a
// cleanup deletes what is in the tables for good. This side of the store keeps the books: which devices may have rows
// waiting, and how many rows were gathered since the last fold or slice.
import type { Database } from 'better-sqlite3';
import { toCell } from './sqlite-values.js';
import { DeletedMeanwhile, type KvEntry, type TelemetryLogBooks } from './types.js';
import type { BufferedWrites } from './buffered-writes.js';
import { createRowWriter, DEVICE_NUM, type FoldDrop, type FoldScope } from './sqlite-telemetry-log.js';
import { createRowBuffer, type PackedRows } from './telemetry-rows.js';
import { createDeviceNumberSet } from './device-number-set.js';

/**
 * Rows gathered before a generation starts: FOLD_ROWS.perDevice for each device with rows in the log,
 * within [min, max]. The more devices the more rows a fold needs to share the pages it dirties. Worker
 * CPU a three-key message (appends in batches of 42, each synced, and folds; 2-core VM): 100 devices
 * 7.1 µs with folds of 20,000 rows, 5.8 with 60,000; 1,000 devices 8.9 with 60,000, 6.5 with 200,000;
 * 10,000 devices 9.9, 7.1 and 5.9 with 60,000, 120,000 and 200,000. With folds of ~490,000 rows at
 * 10,000 devices, the server's CPU besides the event loop fell from 11.6 to 9.6 µs a message, and the
 * bytes it wrote from 2.2-3.1 KB to 1.2-1.4 KB; but a fold of that many took ~0.5 s, with every batch
 * behind it. One device: 5.5 µs with folds of 6,000 to 60,000 rows.
 */
const FOLD_ROWS = { perDevice: 600, min: 60_000, max: 600_000 };
/** The most rows a slice of a generation folds (about): as many as the folds of every row did at most before slices. */
const SLICE_ROWS = 200_000;

/** The rows to gather before the next generation, when rows of `devices` devices wait. */
const foldRowsFor = (devices: number) => Math.min(FOLD_ROWS.max, Math.max(FOLD_ROWS.min, FOLD_ROWS.perDevice * devices));

export interface TelemetryMessage {
  deviceId: string;
  entries: KvEntry[];
}

const ALL: FoldScope = { all: true };

/** A fold's scope as the store asks for it: one device (by id), or every device (null). */
export type ReadScope = string | null;

export interface TelemetryWriter extends BufferedWrites<TelemetryMessage, FoldScope, PackedRows> {
  /** The scope of a fold that covers what a read of `scope` reads. */
  foldScope(scope: ReadScope): FoldScope;
  /**
   * Folds the device's rows, inside the caller's transaction: before its time series are deleted from
   * (`drop`: the delete's rows, sqlite-telemetry-log.ts), or given expiries (sqlite-retention.ts),
   * which must find every acknowledged row in the tables.
   */
  settle(deviceId: string, drop?: FoldDrop): void;
  /** The device is deleted (its number is looked up again, and found missing). */
  forgetDevice(deviceId: string): void;
  /** Rows gathered and folds of every row committed since the writer was made (Store.foldTelemetryLog). */
  books(): TelemetryLogBooks;
}

/**
 * `foldRows`: rows gathered before a generation starts, by the number of devices with rows in the log
 * (foldRowsFor; tests take fewer), in slices of about `sliceRows`. The books start from what the log
 * holds (rows a stop or a crash left there), so that reads fold them first.
 */
export function createTelemetryWriter(db: Database, foldRows: (devices: number) => number = foldRowsFor, sliceRows = SLICE_ROWS): TelemetryWriter {
  // NULL for a device that does not exist.
  const numOf = db.prepare(`SELECT ${DEVICE_NUM('?')}`).pluck();
  // A device keeps its number for life, and an id (a UUID) is never reused.
  const deviceNums = new Map<string, number>();
  const writer = createRowWriter(db);
  const rows = createRowBuffer();
  /**
   * Rows gathered since the generation under way started or the last fold of every row (or its
   * failure), and since its last slice: a generation takes every row in the log, the rows gathered
   * during the one before.
   */
  let sinceFold = db.prepare('SELECT count(*) FROM telemetry_log').pluck().get() as number;
  let sinceSlice = 0;
  /** Since the writer was made: rows gathered, and folds of every row (generations included) committed. */
  let gathered = 0;
  let folds = 0;
  /** The devices whose rows may wait in the log: gathered since the generation under way started, and before. */
  let waiting = createDeviceNumberSet(db.prepare('SELECT DISTINCT device FROM telemetry_log').pluck().all() as number[]);
  let inGeneration = createDeviceNumberSet([]);
  /** The generation under way: its slices, the one due next (0: none under way), and the rows gathered between two. */
  let slices = 0;
  let nextSlice = 0;
  let sliceSpacing = 0;

  function deviceNum(deviceId: string): number {
    const known = deviceNums.get(deviceId);
    if (known !== undefined) return known;
    const num = numOf.get(deviceId) as number | null;
    if (num === null) throw new DeletedMeanwhile(`no device ${deviceId}`);
    deviceNums.set(deviceId, num);
    return num;
  }

  /** A device that does not exist has no row in the log: its fold takes none (numbers start at 1). */
  const deviceScope = (deviceId: string) => ({ device: deviceNums.get(deviceId) ?? (numOf.get(deviceId) as number | null) ?? 0 });

  return {
    add({ deviceId, entries }) {
      // Everything that can throw comes first: a failing message gathers no row.
      const device = deviceNum(deviceId);
      // The one column SQLite could refuse (NOT NULL; NaN binds as NULL) is refused here, for this
      // message alone, rather than in the flush, which would fail the whole transaction.
      for (const e of entries) if (typeof e.ts !== 'number' || Number.isNaN(e.ts)) throw new TypeError(`telemetry ts ${e.ts} is not a number`);
      for (const e of entries) rows.push(device, e.key, e.ts, e.type, toCell(e));
      waiting.add(device);
      sinceFold += entries.length;
      sinceSlice += entries.length;
      gathered += entries.length;
    },
    flush() {
      if (rows.length === 0) return;
      writer.write(rows.take());
    },
    take: () => rows.take(),
    dueFold() {
      if (nextSlice > 0) return sinceSlice >= sliceSpacing ? { slice: nextSlice, slices } : undefined;
      const due = foldRows(waiting.size);
      if (sinceFold < due) return undefined;
      const count = Math.ceil(due / sliceRows);
      return count > 1 ? { slice: 1, slices: count } : ALL;
    },
    foldScope: (scope) => (scope === null ? ALL : deviceScope(scope)),
    needsFold: (scope) =>
      'device' in scope ? waiting.has(scope.device) || inGeneration.has(scope.device) : waiting.size > 0 || inGeneration.size > 0,
    // Reads of several devices at once (device state loading a fleet): one pass over the log for all.
    covering: (scopes) => (scopes.every((s) => 'device' in s && s.device === (scopes[0] as { device: number }).device) ? scopes[0] : ALL),
    fold: writer.fold,
    folded(scope, ok) {
      if ('device' in scope) {
        if (!ok) return;
        waiting.delete(scope.device);
        inGeneration.delete(scope.device);
        return;
      }
      // A fold of every row or a slice, even one that failed, starts its count afresh (no retry at
      // every batch); a slice that failed is due again.
      sinceSlice = 0;
      if ('all' in scope || scope.slice === 1) sinceFold = 0;
      if (!ok) return;
      if ('slice' in scope && scope.slice === 1) {
        // No row was gathered while the fold was in flight (batches wait for it): the generation took
        // every row that waited.
        [inGeneration, waiting] = [waiting, inGeneration];
        slices = scope.slices;
        sliceSpacing = Math.ceil(foldRows(inGeneration.size) / slices);
      }
      if ('slice' in scope && scope.slice < scope.slices) {
        nextSlice = scope.slice + 1;
        return;
      }
      nextSlice = 0;
      inGeneration.clear();
      if ('all' in scope) waiting.clear();
      folds++;
    },
    // The books stay as they are (if this transaction rolls back, the rows are back in the log): a
    // read of the device folds again, which finds nothing.
    settle: (deviceId, drop) => writer.fold(deviceScope(deviceId), drop),
    forgetDevice: (deviceId) => deviceNums.delete(deviceId),
    books: () => ({ rows: gathered, folds }),
    rolledBack() {
      // Device numbers learnt inside the transaction may be gone, and key ids (sqlite-telemetry-log.ts).
      deviceNums.clear();
      writer.rolledBack();
      rows.clear();
    },
  };
}
