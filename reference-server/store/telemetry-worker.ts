// The telemetry worker: a thread with its own connection to the store's file that commits the
// batches of nothing but telemetry which group commit hands over (group-commit.ts Offload), and folds
// the telemetry log (sqlite-telemetry-log.ts), so that their SQL and COMMIT (with its WAL sync:
// synchronous=FULL) run beside the event loop rather than on it. Its messages: rows to append (packed:
// sqlite-telemetry-log.ts PackedRows), or the scope of a fold (each answered null once committed, or
// with the failure after a rollback), or null to close. The WAL checkpoint of a fold of every row runs
// on a thread of its own (wal-checkpointer.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, WAL_CHECKPOINT_PAGES, type ConnectionOptions } from './sqlite-connection.js';
import { createRowWriter, type FoldScope } from './sqlite-telemetry-log.js';
import type { PackedRows } from './telemetry-rows.js';
import { describeFailure } from './store-failure.js';
import { createWalCheckpointer } from './wal-checkpointer.js';

const port = parentPort!;
const { path, options } = workerData as { path: string; options: ConnectionOptions };
const db = openDatabase(path, options);
// The only connection that appends to the log while it lives.
const writer = createRowWriter(db, true);
const begin = db.prepare('BEGIN IMMEDIATE');
const commit = db.prepare('COMMIT');
const rollback = db.prepare('ROLLBACK');
const checkpointer = createWalCheckpointer(path, options);
/**
 * A PRAGMA's setting takes effect when SQLite prepares it, not when it runs: a prepared statement that
 * sets it runs without effect unless SQLite prepares it again. So each time afresh.
 */
const autocheckpoint = (pages: number) => db.pragma(`wal_autocheckpoint = ${pages}`);

/** Commits a fold of every row (or a slice of one) without checkpointing in its COMMIT, and has the checkpointer do it. */
function commitFoldOfAll(): void {
  if (!checkpointer.ready) {
    commit.run();
    return;
  }
  autocheckpoint(0);
  try {
    commit.run();
  } finally {
    autocheckpoint(WAL_CHECKPOINT_PAGES);
  }
  checkpointer.checkpoint();
}

async function close(): Promise<void> {
  await checkpointer.close();
  db.close();
  port.close();
}

port.on('message', (message: PackedRows | FoldScope | null) => {
  if (message === null) {
    void close();
    return;
  }
  try {
    begin.run();
    if ('nums' in message) writer.write(message);
    else writer.fold(message);
    if ('all' in message || 'slice' in message) commitFoldOfAll();
    else commit.run();
  } catch (error) {
    if (db.inTransaction) rollback.run();
    writer.rolledBack();
    // An error does not cross to the event loop as itself: a SqliteError would arrive as a plain
    // object (its code and nothing else), which is not an error to whoever answers the request.
    port.postMessage(describeFailure(error));
    return;
  }
  port.postMessage(null);
});
