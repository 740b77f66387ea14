// The fold of every row of the telemetry log (store/sqlite-telemetry.ts): when it is due, by the
// number of devices with rows in the log, and in how many slices.
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../store/sqlite-connection.js';
import { migrate } from '../store/sqlite-schema.js';
import { createTelemetryWriter, type TelemetryWriter } from '../store/sqlite-telemetry.js';
import type { FoldScope } from '../store/sqlite-telemetry-log.js';
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

describe('the fold of every row', () => {
  it('is due once 60,000 rows wait, 600 a device for larger fleets, at most 600,000; past 200,000 in slices, each due after as many rows as a slice folds', () => {
    const { db, writer } = storeWith(1_100);
    /** Gathers `rows` rows spread over the first `devices` devices; the fold due then. */
    const gather = (rows: number, devices: number) => {
      for (let i = 0; i < rows; i++) writer.add({ deviceId: `d${i % devices}`, entries: [{ key: 'k', ts: i, type: 'LONG', value: i }] });
      return writer.dueFold();
    };
    const folded = (scope: FoldScope) => {
      writer.folded(scope, true);
      writer.take();
    };
    const ALL: FoldScope = { all: true };
    try {
      expect([gather(59_999, 1), gather(1, 1)]).toEqual([undefined, ALL]);
      folded(ALL);
      // 200 devices: 120,000 rows.
      expect([gather(119_999, 200), gather(1, 200)]).toEqual([undefined, ALL]);
      folded(ALL);
      // 400 devices: 240,000 rows, in two slices.
      expect([gather(239_999, 400), gather(1, 400)]).toEqual([undefined, { slice: 1, slices: 2 }]);
      folded({ slice: 1, slices: 2 });
      expect([gather(119_999, 400), gather(1, 400)]).toEqual([undefined, { slice: 2, slices: 2 }]);
      folded({ slice: 2, slices: 2 });
      // 1,100 devices: 600,000 rows (not 660,000), in three slices, the second due 200,000 rows after the first.
      expect([gather(600_000 - 120_001, 1_100), gather(1, 1_100)]).toEqual([undefined, { slice: 1, slices: 3 }]);
      folded({ slice: 1, slices: 3 });
      expect([gather(199_999, 1_100), gather(1, 1_100)]).toEqual([undefined, { slice: 2, slices: 3 }]);
      // A slice that failed is due again after as many rows.
      writer.folded({ slice: 2, slices: 3 }, false);
      expect([gather(199_999, 1_100), gather(1, 1_100)]).toEqual([undefined, { slice: 2, slices: 3 }]);
    } finally {
      db.close();
    }
  });
});
