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

/** The bytes of a WAL file of `pages` pages (4 KB): a 32-byte header, then a 24-byte header a frame. */
export const walFileBytes = (pages: number) => 32 + pages * (24 + 4096);

export interface ConnectionOptions {
  /**
   * The most pages the database file may hold (SQLite's max_page_count; past it a write fails with
   * SQLITE_FULL): a store that fills up without a full disk.
   */
  maxPageCount?: number;
}

export function openDatabase(path: string, options: ConnectionOptions = {}): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // FULL: COMMIT returns once the WAL is synced, and a failed write or sync fails the COMMIT before
  // anything of it is visible (group-commit.ts). NORMAL with a sync after COMMIT, as before, left a
  // batch whose sync failed visible; it kept the loop free during the sync (attribute POSTs: 48.6k/s
  // then, 44.4k/s now, the same CPU per request; reference-server/README.md).
  db.pragma('synchronous = FULL');
  if (options.maxPageCount !== undefined) db.pragma(`max_page_count = ${options.maxPageCount}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Statement journals and sorts in memory: a fold's statements touch thousands of pages, and a
  // statement journal past 64 KiB went to a temporary file (as many pwrite64 calls as the WAL's).
  db.pragma('temp_store = MEMORY');
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  // SQLite reuses its WAL file from the start after a checkpoint, but never shrinks it: a fold, or a
  // checkpoint that a reader held back, left the file at its high-water mark for good (45 MB in a soak
  // whose WAL otherwise cycles through 16 MB). With a limit, the first COMMIT after the WAL is reset
  // truncates the file back to the checkpoint threshold.
  db.pragma(`journal_size_limit = ${walFileBytes(WAL_CHECKPOINT_PAGES)}`);
  return db;
}
