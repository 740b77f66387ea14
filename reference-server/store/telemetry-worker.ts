// The telemetry worker: a thread with its own connection to the store's file that commits the
// batches of nothing but telemetry which group commit hands over (group-commit.ts Offload), so that
// their SQL, COMMIT and fsync run beside the event loop rather than on it. Its messages: rows to
// commit (answered null once committed and synced, or with the error after a rollback), or null to
// close.
import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './sqlite-connection.js';
import { createRowWriter } from './sqlite-telemetry.js';

const port = parentPort!;
const { path } = workerData as { path: string };
const db = openDatabase(path);
const wal = openSync(`${path}-wal`, 'r');
const writer = createRowWriter(db);
const begin = db.prepare('BEGIN IMMEDIATE');
const commit = db.prepare('COMMIT');
const rollback = db.prepare('ROLLBACK');

port.on('message', (rows: unknown[] | null) => {
  if (rows === null) {
    closeSync(wal);
    db.close();
    port.close();
    return;
  }
  try {
    begin.run();
    writer.write(rows);
    commit.run();
  } catch (error) {
    if (db.inTransaction) rollback.run();
    writer.rolledBack();
    port.postMessage(error);
    return;
  }
  try {
    fdatasyncSync(wal);
    port.postMessage(null);
  } catch (error) {
    port.postMessage(error);
  }
});
