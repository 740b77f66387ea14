// How the embedded store opens its SQLite file: the same settings for the store's connection and for
// the telemetry worker's (telemetry-worker.ts).
import Database from 'better-sqlite3';

/**
 * WAL pages before SQLite checkpoints (its default is 1,000). A checkpoint copies the WAL's pages into
 * the database file and fsyncs it inside the COMMIT that crosses the threshold; telemetry from many
 * devices dirties a page per device per batch, so with 1,000 it ran every few batches. Per message
 * (batches of 50, 3 keys): 100 devices 106 µs -> 70, 1,000 devices 92 -> 60-72, one device 16.2 ->
 * 15.1; the WAL file grows to ~16 MB instead of ~4 MB.
 */
export const WAL_CHECKPOINT_PAGES = 4000;

export function openDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // NORMAL: SQLite syncs at checkpoints; group-commit.ts syncs the WAL after each COMMIT (FULL's guarantee).
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Statement journals and sorts in memory: a fold's statements touch thousands of pages, and a
  // statement journal past 64 KiB went to a temporary file (as many pwrite64 calls as the WAL's).
  db.pragma('temp_store = MEMORY');
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  return db;
}
