// Group commit: the writes queued while the previous batch was being made durable run in one
// transaction, each inside its own savepoint (a failing write is rolled back alone and rejects only
// its own caller), and every caller is answered once the batch's COMMIT is on disk. A write made
// of one statement needs no savepoint: SQLite undoes a failing statement by itself.
//
// Durability is that of synchronous=FULL in WAL mode (the WAL is fsynced after each commit, before
// any caller hears of it), but the fsync runs on libuv's thread pool instead of inside COMMIT on the
// event loop: SQLite runs with synchronous=NORMAL (its own syncs at checkpoints) and we fdatasync
// the WAL file after each COMMIT. While that sync runs the loop keeps serving requests, and the
// writes that arrive meanwhile form the next batch: at most one batch is syncing at a time, so
// batches stay as large as they were when the fsync blocked the loop.
import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import type { Database } from 'better-sqlite3';

interface PendingWrite {
  fn: (arg: unknown) => unknown;
  arg: unknown;
  oneStatement: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Outcome {
  ok: boolean;
  value: unknown;
}

/**
 * What the store keeps for a transaction besides its SQL (key ids learnt, rows deferred to the end of
 * the batch), told how each write and the batch end.
 */
export interface TransactionHooks {
  /** After each write: kept (its savepoint released) or rolled back alone. */
  written(ok: boolean): void;
  /** Inside the transaction, just before COMMIT: deferred rows go in here. */
  committing(): void;
  /** The whole transaction rolled back. */
  rolledBack(): void;
}

const NO_HOOKS: TransactionHooks = { written() {}, committing() {}, rolledBack() {} };

export interface GroupCommit {
  /**
   * `oneStatement`: fn changes the database with one statement at most, or throws before any
   * (statements that only add to a dictionary aside), so it runs without a savepoint (~4% of a
   * telemetry POST's CPU).
   */
  write<T, A = undefined>(fn: (arg: A) => T, arg?: A, oneStatement?: boolean): Promise<T>;
  /** Commit and sync whatever is queued or syncing, then release the WAL file (used at close). */
  close(): Promise<void>;
}

/**
 * `walPath`: the WAL file of a file database in WAL mode with synchronous=NORMAL, synced here after
 * each commit. Without it (an in-memory database) a batch is answered at its COMMIT.
 */
export function createGroupCommit(db: Database, walPath?: string, hooks: TransactionHooks = NO_HOOKS): GroupCommit {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const savepoint = db.prepare('SAVEPOINT write');
  const release = db.prepare('RELEASE write');
  const rollbackTo = db.prepare('ROLLBACK TO write');
  const wal = walPath === undefined ? -1 : openSync(walPath, 'r');
  let queue: PendingWrite[] = [];
  let scheduled = false;
  /** The committed batch whose WAL sync is running, with its outcomes. */
  let syncing: { batch: PendingWrite[]; outcomes: Outcome[] } | undefined;
  let closed: (() => void) | undefined;

  function answer(batch: PendingWrite[], outcomes: Outcome[]): void {
    for (let i = 0; i < batch.length; i++) {
      if (outcomes[i].ok) batch[i].resolve(outcomes[i].value);
      else batch[i].reject(outcomes[i].value);
    }
  }

  /** Runs the queued writes in one transaction; undefined when the COMMIT itself failed (all rejected). */
  function commitQueued(): { batch: PendingWrite[]; outcomes: Outcome[] } | undefined {
    const batch = queue;
    queue = [];
    const outcomes: Outcome[] = new Array(batch.length);
    begin.run();
    for (let i = 0; i < batch.length; i++) {
      const guarded = !batch[i].oneStatement;
      if (guarded) savepoint.run();
      try {
        outcomes[i] = { ok: true, value: batch[i].fn(batch[i].arg) };
        if (guarded) release.run();
        hooks.written(true);
      } catch (error) {
        if (guarded) {
          rollbackTo.run();
          release.run();
        }
        hooks.written(false);
        outcomes[i] = { ok: false, value: error };
      }
    }
    try {
      hooks.committing();
      commit.run();
    } catch (error) {
      if (db.inTransaction) rollback.run();
      hooks.rolledBack();
      for (const pending of batch) pending.reject(error);
      return undefined;
    }
    return { batch, outcomes };
  }

  function flush(): void {
    scheduled = false;
    if (syncing || queue.length === 0) return;
    const committed = commitQueued();
    if (!committed) return;
    if (wal < 0) return answer(committed.batch, committed.outcomes);
    syncing = committed;
    fdatasync(wal, synced);
  }

  /** One callback for every sync (no closure per batch). */
  function synced(error: NodeJS.ErrnoException | null): void {
    const { batch, outcomes } = syncing!;
    syncing = undefined;
    if (error) for (const pending of batch) pending.reject(error);
    else answer(batch, outcomes);
    if (closed) return finishClose();
    // The next batch runs after the answers above are sent (they are microtasks of this callback).
    if (queue.length > 0) {
      scheduled = true;
      setImmediate(flush);
    }
  }

  function finishClose(): void {
    if (queue.length > 0) {
      const committed = commitQueued();
      if (committed && wal >= 0) fdatasyncSync(wal);
      if (committed) answer(committed.batch, committed.outcomes);
    }
    if (wal >= 0) closeSync(wal);
    closed!();
  }

  return {
    write<T, A>(fn: (arg: A) => T, arg?: A, oneStatement = false): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ fn: fn as (arg: unknown) => unknown, arg, oneStatement, resolve: resolve as (v: unknown) => void, reject });
        if (!scheduled && !syncing) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    close(): Promise<void> {
      return new Promise<void>((resolve) => {
        closed = resolve;
        if (!syncing) finishClose();
      });
    },
  };
}
