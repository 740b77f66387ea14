// Group commit: the writes queued while the previous batch was being committed run in one
// transaction, each inside its own savepoint (a failing write is rolled back alone and rejects only
// its own caller), and every caller is answered once the batch's COMMIT is on disk.
//
// Buffered writes (the store's telemetry) run no SQL of their own: their rows are gathered and go in
// with a few large statements and no savepoint, which costs a third less per row than a statement
// per write (and a savepoint over hundreds of rows spills its journal to a temporary file). The
// gathered rows are flushed before the transaction's next other write and before COMMIT, so every
// write still sees the ones queued before it.
//
// Buffered writes, the common case under telemetry load, can be committed on another thread (Offload,
// buffered-writes.ts): a batch's rows are gathered here and handed over, and the batch is answered once that thread
// has committed them. With it, the queue goes in runs of one kind, in queue order: a run of buffered
// writes to the other thread, a run of other writes here after it (so that it sees the rows queued
// before it), so that an attribute write or a device state save does not bring the telemetry queued
// with it onto the event loop. Only one batch is in flight at a time, here or there, so the two
// connections never wait for each other's write lock, and the writes that arrive meanwhile form the
// next batch. Once the other thread answers a batch, the next one is taken after one more poll of the
// sockets rather than at once: the requests read in that poll join it, so the batches are as large as
// when the loop committed them itself (55 writes rather than 42 with 1,000 devices under load, so
// fewer syncs a write), and an idle loop polls without waiting, so a lone write is not held back.
//
// Buffered rows go to a log that is folded into their tables later (sqlite-telemetry.ts): a fold is
// in flight like a batch, and read() runs its function once the buffered writes answered before it
// that its scope covers are folded in (fold-reads.ts).
//
// Durability: a file database runs with synchronous=FULL (sqlite-connection.ts), so COMMIT returns
// only once the WAL is synced, and a COMMIT whose write or sync fails (a full disk, an I/O error)
// fails without making anything visible. A batch whose transaction fails is refused whole: none of
// its writes is acknowledged, and none of them is kept. A failure that says the store cannot take
// writes for now (a full disk, an I/O error) reaches the callers as StoreUnavailable, and spells of
// them are told once to the outage watchers (store-failure.ts, write-outages.ts).
import type { Database } from 'better-sqlite3';
import { storeFailure } from './store-failure.js';
import { createWriteOutages, type WriteOutages } from './write-outages.js';
import { NO_BUFFER, type BufferedWrites, type Offload } from './buffered-writes.js';
import { createFoldReads } from './fold-reads.js';
import { StoreUnavailable, type WriteOutage, type Written } from './types.js';

/** A write's outcome, told once its batch is committed (error null) or has failed (store/types.ts Written). */
type Done = (error: Error | null, ctx: unknown, value?: unknown) => void;

/** A queued write and, once its batch ran, its outcome. `fn` undefined: a buffered write. */
interface PendingWrite {
  fn: ((arg: unknown) => unknown) | undefined;
  arg: unknown;
  done: Done;
  ctx: unknown;
  ok: boolean;
  value: unknown;
}

interface Deferred {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

const settle = (error: Error | null, deferred: Deferred, value: unknown) => (error ? deferred.reject(error) : deferred.resolve(value));

export interface GroupCommit<B, S = never> {
  write<T, A = undefined>(fn: (arg: A) => T, arg?: A): Promise<T>;
  /**
   * A write of the store's buffered kind (createGroupCommit's `buffer`). A callback rather than a
   * promise: telemetry is the hot path, and this costs no promise, closure or async step per write.
   */
  writeBuffered<C>(arg: B, done: Written<C>, ctx: C): void;
  /** Runs `read` once the buffered writes answered before that `scope` covers are folded in (at once when none waits). */
  read<T>(scope: S, read: () => T): Promise<T>;
  /** Commit whatever is queued or in flight, and fold the log (used at close). */
  close(): Promise<void>;
  /** store/types.ts Store.watchOutages. */
  watchOutages(listener: (outage: WriteOutage) => void): () => void;
}

/**
 * `onBatch`: told the number of writes of each batch as it is taken (dhi serve --metrics counts the
 * batch sizes through it). `outages`: where refusals and commits are told (its watchers learn of
 * spells of refusals).
 */
export function createGroupCommit<B = never, S = never, R = never>(
  db: Database, buffer: BufferedWrites<B, S, R> = NO_BUFFER, offload?: Offload<S, R>, onBatch?: (writes: number) => void,
  outages: WriteOutages = createWriteOutages(),
): GroupCommit<B, S> {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const savepoint = db.prepare('SAVEPOINT write');
  const release = db.prepare('RELEASE write');
  const rollbackTo = db.prepare('ROLLBACK TO write');
  const queue: PendingWrite[] = [];
  let scheduled = false;
  /** The batch the offload is committing. */
  let offloaded: PendingWrite[] | undefined;
  let closed: (() => void) | undefined;

  function answer(batch: PendingWrite[]): void {
    for (const pending of batch) {
      if (pending.ok) pending.done(null, pending.ctx, pending.value);
      else {
        if (pending.value instanceof StoreUnavailable) outages.refused(pending.value);
        pending.done(pending.value as Error, pending.ctx);
      }
    }
  }

  /** The whole batch failed: every write of it gets the failure, none is acknowledged. */
  function failAll(batch: PendingWrite[], error: unknown): void {
    const failure = storeFailure(error);
    for (const pending of batch) {
      pending.ok = false;
      pending.value = failure;
    }
  }

  /**
   * A write of its own, after the buffered rows gathered before it: inside a savepoint, so that when
   * it fails it is undone alone.
   */
  function runAlone(pending: PendingWrite): void {
    buffer.flush();
    savepoint.run();
    try {
      pending.value = pending.fn!(pending.arg);
      release.run();
      pending.ok = true;
    } catch (error) {
      // SQLite may have rolled back the whole transaction (a full disk, an I/O error): the batch
      // fails with this error, not with ROLLBACK TO's "no such savepoint".
      if (!db.inTransaction) throw error;
      rollbackTo.run();
      release.run();
      pending.ok = false;
      pending.value = storeFailure(error);
    }
  }

  /** The first `count` queued writes (all of them by default). */
  function takeQueue(count = queue.length): PendingWrite[] {
    const batch = queue.splice(0, count);
    onBatch?.(batch.length);
    return batch;
  }

  /** A buffered write's rows join the buffer's, or the write fails alone. */
  function gather(pending: PendingWrite): void {
    try {
      buffer.add(pending.arg as B);
      pending.ok = true;
    } catch (error) {
      pending.ok = false;
      pending.value = error;
    }
  }

  /** How many writes from the front of the queue are of the first one's kind (buffered or not). */
  function leadingRun(): number {
    const buffered = queue[0].fn === undefined;
    let count = 1;
    while (count < queue.length && (queue[count].fn === undefined) === buffered) count++;
    return count;
  }

  /** A batch of buffered writes only: gathered here, committed by the offload. */
  function offloadQueued(batch: PendingWrite[]): void {
    for (const pending of batch) gather(pending);
    offloaded = batch;
    offload!.commit(buffer.take(), committedElsewhere);
  }

  /** Runs the writes in one transaction and answers them. */
  function commitQueued(batch: PendingWrite[]): void {
    try {
      begin.run();
      for (const pending of batch) {
        if (pending.fn === undefined) gather(pending);
        else runAlone(pending);
      }
      buffer.flush();
      commit.run();
      outages.committed();
    } catch (error) {
      if (db.inTransaction) rollback.run();
      buffer.rolledBack();
      failAll(batch, error);
    }
    answer(batch);
  }

  // The queue goes on after a fold (or the close does).
  const folds = createFoldReads(db, buffer, offload, () => {
    if (closed) return finishClose();
    if (queue.length > 0 || folds.waiting) schedule();
  });

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  }

  function flush(): void {
    scheduled = false;
    if (offloaded || folds.folding || folds.startFold() || queue.length === 0) return;
    if (!offload?.ready) return commitQueued(takeQueue());
    const run = takeQueue(leadingRun());
    if (run[0].fn === undefined) return offloadQueued(run);
    commitQueued(run);
    if (queue.length > 0) schedule();
  }

  /** One callback for every offloaded batch (no closure per batch). */
  function committedElsewhere(error: Error | null): void {
    const batch = offloaded!;
    offloaded = undefined;
    if (error) failAll(batch, error);
    else outages.committed();
    answer(batch);
    if (closed) return finishClose();
    // The next batch (or fold) runs after the answers above are sent (they are microtasks of this
    // callback), and after one more poll of the sockets: the requests read meanwhile join it.
    if (queue.length > 0 || folds.waiting || buffer.dueFold() !== undefined) {
      scheduled = true;
      setImmediate(afterNextPoll);
    }
  }

  function afterNextPoll(): void {
    setImmediate(flush);
  }

  /**
   * What is queued is committed, and the reads waiting are answered; then `closed` (the store folds
   * its log as it closes).
   */
  function finishClose(): void {
    if (queue.length > 0) commitQueued(takeQueue());
    folds.finish();
    closed!();
  }

  function enqueue(fn: PendingWrite['fn'], arg: unknown, done: Done, ctx: unknown): void {
    queue.push({ fn, arg, done, ctx, ok: false, value: undefined });
    if (!offloaded && !folds.folding) schedule();
  }

  return {
    write: <T, A>(fn: (arg: A) => T, arg?: A) =>
      new Promise<T>((resolve, reject) => enqueue(fn as (arg: unknown) => unknown, arg, settle as Done, { resolve, reject })),
    writeBuffered: (arg, done, ctx) => enqueue(undefined, arg, done as Done, ctx),
    read<T>(scope: S, read: () => T): Promise<T> {
      const answer = folds.read(scope, read);
      if (folds.waiting && !offloaded && !folds.folding) schedule();
      return answer;
    },
    close(): Promise<void> {
      return new Promise<void>((resolve) => {
        closed = resolve;
        if (!offloaded && !folds.folding) finishClose();
      });
    },
    watchOutages: outages.watch,
  };
}
