// The WAL checkpoint after a fold of every row, on a thread and connection of its own
// (wal-checkpointer.ts says why). Its messages: 'checkpoint', or null to close.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, type ConnectionOptions } from './sqlite-connection.js';

const port = parentPort!;
const { path, options } = workerData as { path: string; options: ConnectionOptions };
const db = openDatabase(path, options);
// PASSIVE copies the WAL's frames into the database file beside the writers (it takes no write lock).
// RESTART then copies the few frames committed meanwhile, holding the write lock for that only
// (8-30 ms under the mixed load, against 30-66 ms for PASSIVE), so that the next writer starts the WAL
// afresh. With PASSIVE alone the WAL was seldom wholly copied when a writer began, and the p90 of every
// path rose 1-3 ms under the mixed load (one run); with RESTART after it, it did not.
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');

port.on('message', (message: 'checkpoint' | null) => {
  if (message === null) {
    db.close();
    port.close();
    return;
  }
  // A checkpoint that fails (a full disk) leaves the frames in the WAL, committed and synced, for the
  // next checkpoint to copy: as SQLite's own autocheckpoint, it is not a write that failed.
  try {
    passive.get();
    restart.get();
  } catch {
    // Nothing to answer.
  }
});
