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
// A batch of nothing but buffered writes, the common case under telemetry load, can be committed on
// another thread (Offload below): its rows are gathered here and handed over, and the batch is
// answered once that thread has committed them. Only one batch is in flight at a time, here or
// there, so the two connections never wait for each other's write lock, and the writes that arrive
// meanwhile form the next batch.
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

/**
 * The store's buffered writes: rows gathered per write, run together (see the top of this file).
 * A write fails alone only in add(); a flush that fails fails the whole transaction, so add() must
 * refuse every row that SQLite would.
 */
export interface BufferedWrites<A> {
  /** Gathers a write's rows; throws (having changed nothing) to fail this write alone. */
  add(arg: A): void;
  /** Runs the rows gathered since the last flush (nothing when there are none). */
  flush(): void;
  /** Hands over the rows gathered since the last flush, for an off-thread commit, and starts afresh. */
  take(): unknown[];
  /** The whole transaction rolled back (what the buffer learnt inside it may be gone). */
  rolledBack(): void;
}

export interface GroupCommit<B> {
  write<T, A = undefined>(fn: (arg: A) => T, arg?: A): Promise<T>;
  /**
   * A write of the store's buffered kind (createGroupCommit's `buffer`). A callback rather than a
   * promise: telemetry is the hot path, and this costs no promise, closure or async step per write.
   */
  writeBuffered<C>(arg: B, done: Written<C>, ctx: C): void;
  /** Commit whatever is queued or in flight (used at close). */
  close(): Promise<void>;
  /** store/types.ts Store.watchOutages. */
  watchOutages(listener: (outage: WriteOutage) => void): () => void;
}

const NO_BUFFER: BufferedWrites<never> = {
  add() {
    throw new Error('this group commit has no buffered writes');
  },
  flush() {},
  take: () => [],
  rolledBack() {},
};

/**
 * Commits buffered rows on another connection in another thread (telemetry-committer.ts): a batch of
 * nothing but buffered writes goes there, so that its SQL, COMMIT and sync leave the event loop.
 */
export interface Offload {
  /** False once it cannot take batches (its thread has gone): they run here again. */
  readonly ready: boolean;
  /** done(null) once the rows are committed and on disk, done(error) when nothing of them was kept. */
  commit(rows: unknown[], done: (error: Error | null) => void): void;
}

/**
 * `onBatch`: told the number of writes of each batch as it is taken (dhi serve --metrics counts the
 * batch sizes through it). `outages`: where refusals and commits are told (its watchers learn of
 * spells of refusals).
 */
export function createGroupCommit<B = never>(
  db: Database, buffer: BufferedWrites<B> = NO_BUFFER, offload?: Offload, onBatch?: (writes: number) => void,
  outages: WriteOutages = createWriteOutages(),
): GroupCommit<B> {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const savepoint = db.prepare('SAVEPOINT write');
  const release = db.prepare('RELEASE write');
  const rollbackTo = db.prepare('ROLLBACK TO write');
  let queue: PendingWrite[] = [];
  /** How many of the queued writes are not buffered ones (a batch with none may be offloaded). */
  let unbuffered = 0;
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

  function takeQueue(): PendingWrite[] {
    const batch = queue;
    queue = [];
    unbuffered = 0;
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

  /** A batch of buffered writes only: gathered here, committed by the offload. */
  function offloadQueued(): void {
    const batch = takeQueue();
    for (const pending of batch) gather(pending);
    offloaded = batch;
    offload!.commit(buffer.take(), committedElsewhere);
  }

  /** Runs the queued writes in one transaction and answers them. */
  function commitQueued(): void {
    const batch = takeQueue();
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

  function flush(): void {
    scheduled = false;
    if (offloaded || queue.length === 0) return;
    if (unbuffered === 0 && offload?.ready) return offloadQueued();
    commitQueued();
  }

  /** One callback for every offloaded batch (no closure per batch). */
  function committedElsewhere(error: Error | null): void {
    const batch = offloaded!;
    offloaded = undefined;
    if (error) failAll(batch, error);
    else outages.committed();
    answer(batch);
    if (closed) return finishClose();
    // The next batch runs after the answers above are sent (they are microtasks of this callback).
    if (queue.length > 0) {
      scheduled = true;
      setImmediate(flush);
    }
  }

  function finishClose(): void {
    if (queue.length > 0) commitQueued();
    closed!();
  }

  function enqueue(fn: PendingWrite['fn'], arg: unknown, done: Done, ctx: unknown): void {
    queue.push({ fn, arg, done, ctx, ok: false, value: undefined });
    if (fn !== undefined) unbuffered++;
    if (!scheduled && !offloaded) {
      scheduled = true;
      setImmediate(flush);
    }
  }

  return {
    write: <T, A>(fn: (arg: A) => T, arg?: A) =>
      new Promise<T>((resolve, reject) => enqueue(fn as (arg: unknown) => unknown, arg, settle as Done, { resolve, reject })),
    writeBuffered: (arg, done, ctx) => enqueue(undefined, arg, done as Done, ctx),
    close(): Promise<void> {
      return new Promise<void>((resolve) => {
        closed = resolve;
        if (!offloaded) finishClose();
      });
    },
    watchOutages: outages.watch,
  };
}
