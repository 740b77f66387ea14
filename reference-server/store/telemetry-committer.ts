// The event loop's side of the telemetry worker (telemetry-worker.ts): group commit's Offload for a
// file database. The thread starts with the first batch it is given.
import type { Worker } from 'node:worker_threads';
import type { Offload } from './buffered-writes.js';
import type { FoldScope } from './sqlite-telemetry-log.js';
import type { PackedRows } from './telemetry-rows.js';
import type { ConnectionOptions } from './sqlite-connection.js';
import { failureFrom, type FailureDescription } from './store-failure.js';
import { startStoreThread } from './worker-thread.js';

export interface TelemetryCommitter extends Offload<FoldScope, PackedRows> {
  /** Closes the worker's connection and ends its thread (after the batch in flight, if any). */
  close(): Promise<void>;
}

/** `options`: the store's own connection settings, for the worker's connection. */
export function createTelemetryCommitter(path: string, options: ConnectionOptions = {}): TelemetryCommitter {
  let worker: Worker | undefined;
  let exited: Promise<unknown> | undefined;
  let inFlight: ((error: Error | null) => void) | undefined;
  let ready = true;

  function settle(error: Error | null): void {
    const done = inFlight;
    inFlight = undefined;
    // Idle, the thread does not keep the process alive.
    worker!.unref();
    done?.(error);
  }

  /** The thread has gone: the batch in flight fails, and later batches are committed on the loop. */
  function gone(error: Error): void {
    ready = false;
    if (inFlight) settle(error);
  }

  /** The worker's answer to a batch: null once committed, else what failed. */
  function answered(failure: FailureDescription | null): void {
    settle(failure && failureFrom(failure));
  }

  /** Hands the worker a message (rows to append, or the scope of a fold), answered through `done`. */
  function send(message: PackedRows | FoldScope, done: (error: Error | null) => void): void {
    worker ??= start();
    inFlight = done;
    worker.ref();
    worker.postMessage(message);
  }

  function start(): Worker {
    const started = startStoreThread('telemetry-worker', { path, options });
    started.on('message', answered);
    started.on('error', gone);
    exited = new Promise((resolve) => started.once('exit', resolve));
    started.on('exit', (code) => gone(new Error(`the telemetry worker exited (code ${code})`)));
    return started;
  }

  return {
    get ready() {
      return ready;
    },
    commit: send,
    fold: send,
    async close() {
      if (!worker || !ready) return;
      ready = false;
      // Held, so that the process waits for the thread to close its connection.
      worker.ref();
      worker.postMessage(null);
      await exited;
    },
  };
}
