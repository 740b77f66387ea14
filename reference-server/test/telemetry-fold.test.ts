// The fold of every row of the telemetry log (store/sqlite-telemetry.ts): when it is due, by the
// number of devices with rows in the log.
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../store/sqlite-connection.js';
import { migrate } from '../store/sqlite-schema.js';
import { createTelemetryWriter, type TelemetryWriter } from '../store/sqlite-telemetry.js';
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
  it('is due once 60,000 rows wait, 600 a device for larger fleets, at most 200,000', () => {
    const { db, writer } = storeWith(400);
    /** Gathers `rows` rows spread over the first `devices` devices; whether a fold of every row is due then. */
    const gather = (rows: number, devices: number) => {
      for (let i = 0; i < rows; i++) writer.add({ deviceId: `d${i % devices}`, entries: [{ key: 'k', ts: i, type: 'LONG', value: i }] });
      return writer.dueFold() !== undefined;
    };
    try {
      expect([gather(59_999, 1), gather(1, 1)]).toEqual([false, true]);
      writer.folded(writer.foldScope(null), true);
      writer.take();
      // 200 devices: 120,000 rows.
      expect([gather(119_999, 200), gather(1, 200)]).toEqual([false, true]);
      writer.folded(writer.foldScope(null), true);
      writer.take();
      expect([gather(199_999, 400), gather(1, 400)]).toEqual([false, true]);
    } finally {
      db.close();
    }
  });
});
