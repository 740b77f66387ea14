// The WAL checkpoint after a fold of every row, on a thread and connection of its own
// (wal-checkpointer.ts says why). Its messages: 'checkpoint', or null to close.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, type ConnectionOptions } from './sqlite-connection.js';

const port = parentPort!;
const { path, options } = workerData as { path: string; options: ConnectionOptions };
const db = openDatabase(path, options);
// PASSIVE: it copies the WAL's frames into the database file beside the writers (it takes no write
// lock). Frames committed meanwhile are copied by the next checkpoint: a COMMIT past the threshold
// copies them (a few pages), and the next writer starts the WAL afresh. RESTART after it (which holds
// the write lock until readers leave the WAL: 8-30 ms under the mixed load) was tried: p99 of the RPC
// paths up ~1.5 ms, and no gain for the writes.
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

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
  } catch {
    // Nothing to answer.
  }
});
