// The WAL checkpoint of a fold of every row, moved off the telemetry worker. A fold of 200,000 rows
// (2,000 devices) writes ~8,500 pages to the WAL, and the COMMIT that crosses the autocheckpoint
// threshold (sqlite-connection.ts) copies them all into the database file and syncs it before it
// returns: ~40-50 ms of a ~400 ms fold (fold micro-benchmark), during which every batch, and every
// write on the event loop, waits for the worker. So the worker commits a fold of every row with its
// autocheckpoint off and hands the checkpoint to this thread, whose own connection copies the pages
// while batches go on (a checkpoint needs no write lock; SQLite's WAL lets it run beside a writer).
// Durability is unchanged: a COMMIT is synced in the WAL either way; a checkpoint only moves pages.
// Under the mixed load (reference-server/README.md, 'Where a fold's time goes') folds 344-368 -> 292-305
// ms, steady write p99s 235-311 -> 208-235 ms, the p90s and the CPU per request unchanged.
import type { Worker } from 'node:worker_threads';
import type { ConnectionOptions } from './sqlite-connection.js';
import { startStoreThread } from './worker-thread.js';

export interface WalCheckpointer {
  /** The thread can take checkpoints (else the COMMIT that crosses the threshold checkpoints, as before). */
  readonly ready: boolean;
  /** Checkpoints the WAL beside the writers, soon. */
  checkpoint(): void;
  /** Ends the thread once its checkpoint in hand is done. */
  close(): Promise<void>;
}

/** The thread starts with the first checkpoint. */
export function createWalCheckpointer(path: string, options: ConnectionOptions): WalCheckpointer {
  let thread: Worker | undefined;
  let exited: Promise<unknown> | undefined;
  let ready = true;

  function start(): Worker {
    const started = startStoreThread('checkpoint-worker', { path, options });
    exited = new Promise((resolve) => started.once('exit', resolve));
    // A thread that failed leaves the checkpoints to the COMMITs again (sqlite-connection.ts).
    started.on('error', () => (ready = false));
    started.on('exit', () => (ready = false));
    return started;
  }

  return {
    get ready() {
      return ready;
    },
    checkpoint() {
      thread ??= start();
      thread.postMessage('checkpoint');
    },
    async close() {
      if (!thread || !ready) return;
      ready = false;
      thread.postMessage(null);
      await exited;
    },
  };
}
