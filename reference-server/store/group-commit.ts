// Group commit: the writes queued while the previous batch was being made durable run in one
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
// answered once that thread has committed and synced them. Only one batch is in flight at a time,
// here or there, so the two connections never wait for each other's write lock.
//
// Buffered rows go to a log that is folded into their tables later (sqlite-telemetry.ts): a fold is
// in flight like a batch, on the other thread when it can take it, and runs when enough rows wait or
// when a read needs it. read() runs its function once every buffered write answered before it is
// folded in; it runs at once when the log is empty. A fold is not synced: the log it empties was,
// and the next batch's sync covers the fold.
//
// Durability is that of synchronous=FULL in WAL mode (the WAL is fsynced after each commit, before
// any caller hears of it), but the fsync runs on libuv's thread pool instead of inside COMMIT on the
// event loop: SQLite runs with synchronous=NORMAL (its own syncs at checkpoints) and we fdatasync
// the WAL file after each COMMIT. While that sync runs the loop keeps serving requests, and the
// writes that arrive meanwhile form the next batch: at most one batch is syncing at a time, so
// batches stay as large as they were when the fsync blocked the loop.
import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import type { Database } from 'better-sqlite3';
import type { Written } from './types.js';

/** A write's outcome, told once its batch is synced (error null) or has failed (store/types.ts Written). */
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
  /** Whether committed rows wait in the log (to be folded before a read). */
  logged(): boolean;
  /** Enough rows wait in the log that a fold should run before the next batch. */
  foldDue(): boolean;
  /** Folds the log into the tables, inside the caller's transaction. */
  fold(): void;
  /** A fold was committed, or failed: the count towards the next one starts afresh. */
  folded(): void;
}

export interface GroupCommit<B> {
  write<T, A = undefined>(fn: (arg: A) => T, arg?: A): Promise<T>;
  /**
   * A write of the store's buffered kind (createGroupCommit's `buffer`). A callback rather than a
   * promise: telemetry is the hot path, and this costs no promise, closure or async step per write.
   */
  writeBuffered<C>(arg: B, done: Written<C>, ctx: C): void;
  /** Runs `read` once the buffered writes answered before are folded in (at once when none waits). */
  read<T>(read: () => T): Promise<T>;
  /** Commit and sync whatever is queued or syncing, then release the WAL file (used at close). */
  close(): Promise<void>;
}

const NO_BUFFER: BufferedWrites<never> = {
  add() {
    throw new Error('this group commit has no buffered writes');
  },
  flush() {},
  take: () => [],
  rolledBack() {},
  logged: () => false,
  foldDue: () => false,
  fold() {},
  folded() {},
};

/**
 * Commits buffered rows on another connection in another thread (telemetry-committer.ts): a batch of
 * nothing but buffered writes goes there, so that its SQL, COMMIT and fsync leave the event loop.
 */
export interface Offload {
  /** False once it cannot take batches (its thread has gone): they run here again. */
  readonly ready: boolean;
  /** done(null) once the rows are committed and synced, done(error) when nothing of them was. */
  commit(rows: unknown[], done: (error: Error | null) => void): void;
  /** done(null) once the log is folded in (committed), done(error) when it was not. */
  fold(done: (error: Error | null) => void): void;
}

/**
 * `walPath`: the WAL file of a file database in WAL mode with synchronous=NORMAL, synced here after
 * each commit. Without it (an in-memory database) a batch is answered at its COMMIT.
 */
export function createGroupCommit<B = never>(db: Database, walPath?: string, buffer: BufferedWrites<B> = NO_BUFFER, offload?: Offload): GroupCommit<B> {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const savepoint = db.prepare('SAVEPOINT write');
  const release = db.prepare('RELEASE write');
  const rollbackTo = db.prepare('ROLLBACK TO write');
  const wal = walPath === undefined ? -1 : openSync(walPath, 'r');
  let queue: PendingWrite[] = [];
  /** Reads waiting for a fold. */
  let reads: { read: () => unknown; deferred: Deferred }[] = [];
  /** A fold is in flight (on the loop or offloaded). */
  let folding = false;
  /** How many of the queued writes are not buffered ones (a batch with none may be offloaded). */
  let unbuffered = 0;
  let scheduled = false;
  /** The committed batch whose WAL sync is running. */
  let syncing: PendingWrite[] | undefined;
  let closed: (() => void) | undefined;

  function answer(batch: PendingWrite[]): void {
    for (const pending of batch) {
      if (pending.ok) pending.done(null, pending.ctx, pending.value);
      else pending.done(pending.value as Error, pending.ctx);
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
      rollbackTo.run();
      release.run();
      pending.ok = false;
      pending.value = error;
    }
  }

  function takeQueue(): PendingWrite[] {
    const batch = queue;
    queue = [];
    unbuffered = 0;
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

  /** A batch of buffered writes only: gathered here, committed and synced by the offload. */
  function offloadQueued(): void {
    const batch = takeQueue();
    for (const pending of batch) gather(pending);
    syncing = batch;
    offload!.commit(buffer.take(), synced);
  }

  /** Runs the queued writes in one transaction; undefined when it failed as a whole (all rejected). */
  function commitQueued(): PendingWrite[] | undefined {
    const batch = takeQueue();
    try {
      begin.run();
      for (const pending of batch) {
        if (pending.fn === undefined) gather(pending);
        else runAlone(pending);
      }
      buffer.flush();
      commit.run();
    } catch (error) {
      if (db.inTransaction) rollback.run();
      buffer.rolledBack();
      for (const pending of batch) pending.done(error as Error, pending.ctx);
      return undefined;
    }
    return batch;
  }

  /** Folds the log on this connection, in a transaction of its own. */
  function foldHere(): Error | null {
    try {
      begin.run();
      buffer.fold();
      commit.run();
      return null;
    } catch (error) {
      if (db.inTransaction) rollback.run();
      buffer.rolledBack();
      return error as Error;
    }
  }

  function startFold(): void {
    folding = true;
    if (offload?.ready) return offload.fold(foldDone);
    foldDone(foldHere());
  }

  /** Reads run once the log is folded in (or fail with the fold); then the queue goes on. */
  function foldDone(error: Error | null): void {
    folding = false;
    buffer.folded();
    const waiting = reads;
    reads = [];
    for (const { read, deferred } of waiting) runRead(read, deferred, error);
    if (closed) return finishClose();
    if (queue.length > 0 || reads.length > 0) schedule();
  }

  function runRead(read: () => unknown, deferred: Deferred, error: Error | null): void {
    if (error) return deferred.reject(error);
    try {
      deferred.resolve(read());
    } catch (failure) {
      deferred.reject(failure as Error);
    }
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  }

  function flush(): void {
    scheduled = false;
    if (syncing || folding) return;
    if (reads.length > 0 || buffer.foldDue()) return startFold();
    if (queue.length === 0) return;
    if (unbuffered === 0 && offload?.ready) return offloadQueued();
    const committed = commitQueued();
    if (!committed) return;
    if (wal < 0) return answer(committed);
    syncing = committed;
    fdatasync(wal, synced);
  }

  /** One callback for every sync and offloaded commit (no closure per batch). */
  function synced(error: Error | null): void {
    const batch = syncing!;
    syncing = undefined;
    if (error) {
      for (const pending of batch) {
        if (!pending.ok) continue;
        pending.ok = false;
        pending.value = error;
      }
    }
    answer(batch);
    if (closed) return finishClose();
    // The next batch (or fold) runs after the answers above are sent (they are microtasks of this callback).
    if (queue.length > 0 || reads.length > 0 || buffer.foldDue()) schedule();
  }

  /** What is queued is committed and synced, and the log folded in, so that the file holds it all in its tables. */
  function finishClose(): void {
    if (queue.length > 0) {
      const committed = commitQueued();
      if (committed && wal >= 0) fdatasyncSync(wal);
      if (committed) answer(committed);
    }
    const error = buffer.logged() ? foldHere() : null;
    if (!error && wal >= 0) fdatasyncSync(wal);
    for (const { read, deferred } of reads) runRead(read, deferred, error);
    reads = [];
    if (wal >= 0) closeSync(wal);
    closed!();
  }

  function enqueue(fn: PendingWrite['fn'], arg: unknown, done: Done, ctx: unknown): void {
    queue.push({ fn, arg, done, ctx, ok: false, value: undefined });
    if (fn !== undefined) unbuffered++;
    if (!syncing && !folding) schedule();
  }

  return {
    write: <T, A>(fn: (arg: A) => T, arg?: A) =>
      new Promise<T>((resolve, reject) => enqueue(fn as (arg: unknown) => unknown, arg, settle as Done, { resolve, reject })),
    writeBuffered: (arg, done, ctx) => enqueue(undefined, arg, done as Done, ctx),
    read<T>(read: () => T): Promise<T> {
      // With a fold in flight the log is still full as this connection sees it: wait for it.
      if (!folding && !buffer.logged()) return new Promise<T>((resolve) => resolve(read()));
      return new Promise<T>((resolve, reject) => {
        reads.push({ read, deferred: { resolve: resolve as (value: unknown) => void, reject } });
        if (!syncing && !folding) schedule();
      });
    },
    close(): Promise<void> {
      return new Promise<void>((resolve) => {
        closed = resolve;
        if (!syncing && !folding) finishClose();
      });
    },
  };
}
