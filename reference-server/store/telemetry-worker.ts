// The telemetry worker: a thread with its own connection to the store's file that commits the
// batches of nothing but telemetry which group commit hands over (group-commit.ts Offload), and folds
// the telemetry log (sqlite-telemetry-log.ts), so that their SQL and COMMIT (with its WAL sync:
// synchronous=FULL) run beside the event loop rather than on it. Its messages: rows to append (packed:
// sqlite-telemetry-log.ts PackedRows), or the scope of a fold (each answered null once committed, or
// with the failure after a rollback), or null to close.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, type ConnectionOptions } from './sqlite-connection.js';
import { createRowWriter, type FoldScope, type PackedRows } from './sqlite-telemetry-log.js';
import { describeFailure } from './store-failure.js';

const port = parentPort!;
const { path, options } = workerData as { path: string; options: ConnectionOptions };
const db = openDatabase(path, options);
const writer = createRowWriter(db);
const begin = db.prepare('BEGIN IMMEDIATE');
const commit = db.prepare('COMMIT');
const rollback = db.prepare('ROLLBACK');

port.on('message', (message: PackedRows | FoldScope | null) => {
  if (message === null) {
    db.close();
    port.close();
    return;
  }
  try {
    begin.run();
    if ('nums' in message) writer.write(message);
    else writer.fold(message);
    commit.run();
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
