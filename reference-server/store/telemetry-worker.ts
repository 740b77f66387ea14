// The telemetry worker: a thread with its own connection to the store's file that commits the
// batches of nothing but telemetry which group commit hands over (group-commit.ts Offload), and folds
// the telemetry log (sqlite-telemetry.ts), so that their SQL, COMMIT and fsync run beside the event
// loop rather than on it. Its messages: rows to commit (answered null once committed and synced, or
// with the error after a rollback), FOLD (answered null once the fold is committed, or with its
// error), or null to close.
import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './sqlite-connection.js';
import { createRowWriter } from './sqlite-telemetry.js';
import { FOLD } from './telemetry-worker-messages.js';

const port = parentPort!;
const { path } = workerData as { path: string };
const db = openDatabase(path);
const wal = openSync(`${path}-wal`, 'r');
const writer = createRowWriter(db);
const begin = db.prepare('BEGIN IMMEDIATE');
const commit = db.prepare('COMMIT');
const rollback = db.prepare('ROLLBACK');

/** Runs `change` in a transaction; the error when it failed (rolled back), else null. */
function transaction(change: () => void): Error | null {
  try {
    begin.run();
    change();
    commit.run();
    return null;
  } catch (error) {
    if (db.inTransaction) rollback.run();
    writer.rolledBack();
    return error as Error;
  }
}

port.on('message', (message: unknown[] | typeof FOLD | null) => {
  if (message === null) {
    closeSync(wal);
    db.close();
    port.close();
    return;
  }
  // Not synced: the log it empties was, and the next batch's sync covers it (group-commit.ts).
  if (message === FOLD) return port.postMessage(transaction(writer.fold));
  const error = transaction(() => writer.write(message));
  if (error) return port.postMessage(error);
  try {
    fdatasyncSync(wal);
    port.postMessage(null);
  } catch (failure) {
    port.postMessage(failure);
  }
});
