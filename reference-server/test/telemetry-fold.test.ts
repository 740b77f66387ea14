// The fold of every row of the telemetry log (store/sqlite-telemetry.ts): when it is due, by the
// number of devices with rows in the log; and which batches skip the log.
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../store/sqlite-connection.js';
import { migrate } from '../store/sqlite-schema.js';
import { createTelemetryWriter, type TelemetryWriter } from '../store/sqlite-telemetry.js';
import type { PackedRows } from '../store/telemetry-rows.js';
import { tempDir } from './helpers.js';

/** A migrated file database with `devices` devices (d0, d1, ...) and the writer of its telemetry. */
function storeWith(devices: number): { db: Database; writer: TelemetryWriter } {
  const db = openDatabase(join(tempDir(), 'fold.db'));
  migrate(db, 'profile-1', 0);
  const insert = db.prepare(`INSERT INTO devices (id, name, type, token, credentials_type, profile_id, created_time)
    VALUES (?, ?, 'default', ?, 'ACCESS_TOKEN', 'profile-1', 0)`);
  for (let i = 0; i < devices; i++) insert.run(`d${i}`, `d${i}`, `t${i}`);
  return { db, writer: createTelemetryWriter(db) };
}

/** Gathers `rows` rows spread over the first `devices` devices, in one batch, and hands it over. */
function gather(writer: TelemetryWriter, rows: number, devices: number, first = 0): PackedRows {
  for (let i = 0; i < rows; i++) writer.add({ deviceId: `d${first + (i % devices)}`, entries: [{ key: 'k', ts: i, type: 'LONG', value: i }] });
  return writer.take();
}

describe('the fold of every row', () => {
  it('is due once 60,000 rows wait, 600 a device for larger fleets, at most 200,000', () => {
    const { db, writer } = storeWith(400);
    /** Whether a fold of every row is due after a batch of `rows` rows of `devices` devices went to the log. */
    const due = (rows: number, devices: number) => {
      expect(gather(writer, rows, devices).direct).toBe(false);
      return writer.dueFold() !== undefined;
    };
    try {
      expect([due(59_999, 10), due(1, 10)]).toEqual([false, true]);
      writer.folded(writer.foldScope(null), true);
      // 200 devices: 120,000 rows.
      expect([due(119_999, 200), due(1, 200)]).toEqual([false, true]);
      writer.folded(writer.foldScope(null), true);
      expect([due(199_999, 400), due(1, 400)]).toEqual([false, true]);
    } finally {
      db.close();
    }
  });
});

describe('a batch straight into the time series', () => {
  it('is one of up to four devices with no row in the log; its rows count toward no fold', () => {
    const { db, writer } = storeWith(10);
    try {
      expect(gather(writer, 60_000, 4).direct).toBe(true);
      expect(writer.dueFold()).toBeUndefined();
      expect(writer.needsFold(writer.foldScope('d0'))).toBe(false);
      // A fifth device sends the whole batch to the log, and its devices' later batches, alone or not.
      expect(gather(writer, 5, 5).direct).toBe(false);
      expect(writer.needsFold(writer.foldScope('d4'))).toBe(true);
      expect(gather(writer, 1, 1).direct).toBe(false);
      expect(gather(writer, 2, 2, 5).direct).toBe(true);
      expect(gather(writer, 2, 2, 4).direct).toBe(false);
      // A read of d0 folds it: straight again; the others wait for the fold of every row.
      writer.folded(writer.foldScope('d0'), true);
      expect(gather(writer, 1, 1).direct).toBe(true);
      expect(gather(writer, 1, 1, 1).direct).toBe(false);
      writer.folded(writer.foldScope(null), true);
      expect(gather(writer, 3, 3, 2).direct).toBe(true);
      expect(writer.books()).toEqual({ rows: 60_015, direct: 60_006, folds: 1 });
    } finally {
      db.close();
    }
  });
});
