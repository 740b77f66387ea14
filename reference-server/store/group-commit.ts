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
// Buffered writes, the common case under telemetry load, can be committed on another thread (Offload
// below): a batch's rows are gathered here and handed over, and the batch is answered once that thread
// has committed them. With it, the queue goes in runs of one kind, in queue order: a run of buffered
// writes to the other thread, a run of other writes here after it (so that it sees the rows queued
// before it), so that an attribute write or a device state save does not bring the telemetry queued
// with it onto the event loop. Only one batch is in flight at a time, here or there, so the two
// connections never wait for each other's write lock, and the writes that arrive meanwhile form the
// next batch.
//
// Buffered rows go to a log that is folded into their tables later (sqlite-telemetry.ts): a fold is
// in flight like a batch, on the other thread when it can take it, and runs when the buffer says one
// is due or when a read needs it. read() runs its function once the buffered writes answered before
// it that its scope covers are folded in; at once when none waits.
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

/** SQLite's largest max_page_count. */
const UNCAPPED_PAGES = 4294967294;

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

/** A read of the buffered writes that `scope` covers, waiting for their fold. */
interface PendingRead<S> {
  scope: S;
  read: () => unknown;
  deferred: Deferred;
}
const settle = (error: Error | null, deferred: Deferred, value: unknown) => (error ? deferred.reject(error) : deferred.resolve(value));

/**
 * The store's buffered writes: rows gathered per write, run together (see the top of this file).
 * A write fails alone only in add(); a flush that fails fails the whole transaction, so add() must
 * refuse every row that SQLite would.
 */
export interface BufferedWrites<A, S = never> {
  /** Gathers a write's rows; throws (having changed nothing) to fail this write alone. */
  add(arg: A): void;
  /** Runs the rows gathered since the last flush (nothing when there are none). */
  flush(): void;
  /** Hands over the rows gathered since the last flush, for an off-thread commit, and starts afresh. */
  take(): unknown[];
  /** The whole transaction rolled back (what the buffer learnt inside it may be gone). */
  rolledBack(): void;
  /** The scope of a fold to run before the next batch, when one is due. */
  dueFold(): S | undefined;
  /** Whether rows that `scope` covers may wait in the log (a read of it folds first). */
  needsFold(scope: S): boolean;
  /** The scope of one fold that serves reads of all of `scopes` (the reads waiting together). */
  covering(scopes: S[]): S;
  /** Folds the rows of `scope` into their tables, inside the caller's transaction. */
  fold(scope: S): void;
  /** The fold of `scope` was committed (ok) or failed. */
  folded(scope: S, ok: boolean): void;
}

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

const NO_BUFFER: BufferedWrites<never, never> = {
  add() {
    throw new Error('this group commit has no buffered writes');
  },
  flush() {},
  take: () => [],
  rolledBack() {},
  dueFold: () => undefined,
  needsFold: () => false,
  covering: (scopes) => scopes[0],
  fold() {},
  folded() {},
};

/**
 * Commits buffered rows on another connection in another thread (telemetry-committer.ts): a batch of
 * nothing but buffered writes goes there, so that its SQL, COMMIT and sync leave the event loop.
 */
export interface Offload<S = never> {
  /** False once it cannot take batches (its thread has gone): they run here again. */
  readonly ready: boolean;
  /** done(null) once the rows are committed and on disk, done(error) when nothing of them was kept. */
  commit(rows: unknown[], done: (error: Error | null) => void): void;
  /** done(null) once the rows of `scope` are folded in, done(error) when nothing of the fold was kept. */
  fold(scope: S, done: (error: Error | null) => void): void;
}

/**
 * `onBatch`: told the number of writes of each batch as it is taken (dhi serve --metrics counts the
 * batch sizes through it). `outages`: where refusals and commits are told (its watchers learn of
 * spells of refusals).
 */
export function createGroupCommit<B = never, S = never>(
  db: Database, buffer: BufferedWrites<B, S> = NO_BUFFER, offload?: Offload<S>, onBatch?: (writes: number) => void,
  outages: WriteOutages = createWriteOutages(),
): GroupCommit<B, S> {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const savepoint = db.prepare('SAVEPOINT write');
  const release = db.prepare('RELEASE write');
  const rollbackTo = db.prepare('ROLLBACK TO write');
  const queue: PendingWrite[] = [];
  /** Reads waiting for a fold. */
  let reads: PendingRead<S>[] = [];
  /** The scope of the fold in flight (here or offloaded). */
  let folding: S | undefined;
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

  /** Folds `scope` on this connection, in a transaction of its own: the error when it failed, else null. */
  function foldHere(scope: S): Error | null {
    try {
      begin.run();
      buffer.fold(scope);
      commit.run();
      return null;
    } catch (error) {
      if (db.inTransaction) rollback.run();
      buffer.rolledBack();
      return error as Error;
    }
  }

  function startFold(scope: S): void {
    folding = scope;
    if (offload?.ready) return offload.fold(scope, foldDone);
    foldDone(foldHere(scope));
  }

  /**
   * The reads that no longer wait for anything run, and those the fold could not serve (the store
   * cannot take writes) read uncommitted; the others wait for the next fold; then the queue goes on.
   */
  function foldDone(error: Error | null): void {
    const scope = folding!;
    folding = undefined;
    buffer.folded(scope, error === null);
    const waiting = reads;
    reads = [];
    for (const r of waiting) {
      if (!buffer.needsFold(r.scope)) runRead(r);
      else if (error) readUncommitted(r);
      else reads.push(r);
    }
    if (closed) return finishClose();
    if (queue.length > 0 || reads.length > 0) schedule();
  }

  function runRead({ read, deferred }: PendingRead<S>): void {
    try {
      deferred.resolve(read());
    } catch (failure) {
      deferred.reject(failure as Error);
    }
  }

  /**
   * A read whose fold could not be committed (a full disk refuses it): its scope is folded for it
   * alone in a transaction that is rolled back afterwards, so that reads go on while writes cannot.
   * On a full disk the fold's pages stay in SQLite's cache (they would reach the WAL at COMMIT); a cap
   * on the file's pages (max_page_count, which tests fill a store with) counts them as they are made,
   * so it is lifted meanwhile: none of them reaches the file.
   */
  function readUncommitted({ scope, read, deferred }: PendingRead<S>): void {
    const cap = db.pragma('max_page_count', { simple: true }) as number;
    try {
      db.pragma(`max_page_count = ${UNCAPPED_PAGES}`);
      begin.run();
      buffer.fold(scope);
      deferred.resolve(read());
    } catch (error) {
      deferred.reject(storeFailure(error) as Error);
    } finally {
      if (db.inTransaction) rollback.run();
      db.pragma(`max_page_count = ${cap}`);
    }
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  }

  function flush(): void {
    scheduled = false;
    if (offloaded || folding !== undefined) return;
    if (reads.length > 0) return startFold(buffer.covering(reads.map((r) => r.scope)));
    const due = buffer.dueFold();
    if (due !== undefined) return startFold(due);
    if (queue.length === 0) return;
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
    // The next batch (or fold) runs after the answers above are sent (they are microtasks of this callback).
    if (queue.length > 0 || reads.length > 0 || buffer.dueFold() !== undefined) schedule();
  }

  /**
   * What is queued is committed, and the reads waiting are answered; then `closed` (the store folds
   * its log as it closes).
   */
  function finishClose(): void {
    if (queue.length > 0) commitQueued(takeQueue());
    for (const r of reads) {
      if (foldHere(r.scope)) readUncommitted(r);
      else runRead(r);
    }
    reads = [];
    closed!();
  }

  function enqueue(fn: PendingWrite['fn'], arg: unknown, done: Done, ctx: unknown): void {
    queue.push({ fn, arg, done, ctx, ok: false, value: undefined });
    if (!offloaded && folding === undefined) schedule();
  }

  return {
    write: <T, A>(fn: (arg: A) => T, arg?: A) =>
      new Promise<T>((resolve, reject) => enqueue(fn as (arg: unknown) => unknown, arg, settle as Done, { resolve, reject })),
    writeBuffered: (arg, done, ctx) => enqueue(undefined, arg, done as Done, ctx),
    read<T>(scope: S, read: () => T): Promise<T> {
      // No row of the scope waits (one that a fold in flight takes still waits until it is folded).
      if (!buffer.needsFold(scope)) return new Promise<T>((resolve) => resolve(read()));
      return new Promise<T>((resolve, reject) => {
        reads.push({ scope, read, deferred: { resolve: resolve as (value: unknown) => void, reject } });
        if (!offloaded && folding === undefined) schedule();
      });
    },
    close(): Promise<void> {
      return new Promise<void>((resolve) => {
        closed = resolve;
        if (!offloaded && folding === undefined) finishClose();
      });
    },
    watchOutages: outages.watch,
  };
}
