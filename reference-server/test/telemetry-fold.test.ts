// The fold of every row of the telemetry log (store/sqlite-telemetry.ts): when it is due, by the
// number of devices with rows in the log; and which batches skip the log.
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../store/sqlite-connection.js';
import { migrate } from '../store/sqlite-schema.js';
import { createTelemetryWriter, type TelemetryWriter, type TelemetryWriterLimits } from '../store/sqlite-telemetry.js';
import type { PackedRows } from '../store/telemetry-rows.js';
import { tempDir } from './helpers.js';

/** A migrated file database with `devices` devices (d0, d1, ...) and the writer of its telemetry. */
function storeWith(devices: number, limits?: TelemetryWriterLimits): { db: Database; writer: TelemetryWriter } {
  const db = openDatabase(join(tempDir(), 'fold.db'));
  migrate(db, 'profile-1', 0);
  const insert = db.prepare(`INSERT INTO devices (id, name, type, token, credentials_type, profile_id, created_time)
    VALUES (?, ?, 'default', ?, 'ACCESS_TOKEN', 'profile-1', 0)`);
  for (let i = 0; i < devices; i++) insert.run(`d${i}`, `d${i}`, `t${i}`);
  return { db, writer: createTelemetryWriter(db, limits) };
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
      expect(gather(writer, rows, devices).direct).toBeUndefined();
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
  it('is one of up to four devices that were all in the batch before; its rows count toward no fold', () => {
    const { db, writer } = storeWith(10);
    try {
      expect(gather(writer, 4, 4).direct).toBeUndefined();
      expect(writer.needsFold(writer.foldScope('d0'))).toBe(true);
      writer.folded(writer.foldScope(null), true);
      // The same devices again, or some of them: straight in, with nothing in the log to fold first.
      expect(gather(writer, 8, 4).direct).toEqual({ foldFirst: [] });
      expect(gather(writer, 2, 2).direct).toEqual({ foldFirst: [] });
      expect(writer.needsFold(writer.foldScope('d0'))).toBe(false);
      // A device not in the batch before, or a fifth device: to the log.
      expect(gather(writer, 3, 3).direct).toBeUndefined();
      expect(gather(writer, 5, 5, 5).direct).toBeUndefined();
      expect(gather(writer, 5, 5, 5).direct).toBeUndefined();
      expect(writer.needsFold(writer.foldScope('d9'))).toBe(true);
      expect(writer.dueFold()).toBeUndefined();
      expect(writer.books()).toEqual({ rows: 27, direct: 10, folds: 1 });
    } finally {
      db.close();
    }
  });

  it('has the rows of its devices waiting in a small log folded first; with more than 1,000 rows gathered since the last fold of every row it goes to the log', () => {
    const { db, writer } = storeWith(10);
    try {
      expect(gather(writer, 1, 1).direct).toBeUndefined();
      // d0 is device number 1; its rows wait in the log until that batch is committed.
      expect(gather(writer, 2, 1).direct).toEqual({ foldFirst: [1] });
      expect(writer.needsFold(writer.foldScope('d0'))).toBe(true);
      writer.committed();
      expect(writer.needsFold(writer.foldScope('d0'))).toBe(false);
      // Should such a batch fail, they wait still.
      expect(gather(writer, 1, 1, 1).direct).toBeUndefined();
      expect(gather(writer, 2, 1, 1).direct).toEqual({ foldFirst: [2] });
      writer.rolledBack();
      writer.committed();
      expect(writer.needsFold(writer.foldScope('d1'))).toBe(true);
      expect(gather(writer, 1_000, 5, 2).direct).toBeUndefined();
      expect(gather(writer, 2, 2, 2).direct).toBeUndefined();
      expect(gather(writer, 2, 2, 2).direct).toBeUndefined();
      expect(writer.needsFold(writer.foldScope('d2'))).toBe(true);
      writer.folded(writer.foldScope(null), true);
      expect(gather(writer, 2, 2, 2).direct).toEqual({ foldFirst: [] });
    } finally {
      db.close();
    }
  });
});
