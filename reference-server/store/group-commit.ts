// Group commit: every write of one event-loop turn runs in one transaction, each inside its own
// savepoint (a failing write is rolled back alone and rejects only its own caller), and every
// caller is answered after the single COMMIT has been made durable. With a `durability` (the file
// store's WAL fdatasync), the fsync runs on libuv's thread pool instead of inside COMMIT on the event
// loop: while one group's fsync is in flight the next groups commit, and one fsync then covers them
// all. Callers are answered only after an fsync that started after their COMMIT has completed.
import type { Database } from 'better-sqlite3';

interface PendingWrite {
  fn: (arg: unknown) => unknown;
  arg: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Committed {
  batch: PendingWrite[];
  outcomes: { ok: boolean; value: unknown }[];
}

/** Makes everything committed so far durable, off the event loop; calls back once done. */
export type Durability = (done: (error: Error | null) => void) => void;

export interface GroupCommit {
  write<T, A = undefined>(fn: (arg: A) => T, arg?: A): Promise<T>;
  /** Commit and make durable whatever is queued now, and wait for any fsync in flight (close). */
  drain(): Promise<void>;
}

function settle({ batch, outcomes }: Committed): void {
  for (let i = 0; i < batch.length; i++) {
    if (outcomes[i].ok) batch[i].resolve(outcomes[i].value);
    else batch[i].reject(outcomes[i].value);
  }
}

function rejectAll({ batch }: Committed, error: unknown): void {
  for (const pending of batch) pending.reject(error);
}

export function createGroupCommit(db: Database, durability?: Durability): GroupCommit {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const savepoint = db.prepare('SAVEPOINT write');
  const release = db.prepare('RELEASE write');
  const rollbackTo = db.prepare('ROLLBACK TO write');
  let queue: PendingWrite[] = [];
  let scheduled = false;
  // Groups committed but not yet covered by a completed fsync, and the fsync in flight.
  let awaitingSync: Committed[] = [];
  let syncing: Promise<void> | undefined;

  function flush(): void {
    scheduled = false;
    const batch = queue;
    if (batch.length === 0) return;
    queue = [];
    const outcomes: { ok: boolean; value: unknown }[] = new Array(batch.length);
    begin.run();
    for (let i = 0; i < batch.length; i++) {
      savepoint.run();
      try {
        outcomes[i] = { ok: true, value: batch[i].fn(batch[i].arg) };
        release.run();
      } catch (error) {
        rollbackTo.run();
        release.run();
        outcomes[i] = { ok: false, value: error };
      }
    }
    try {
      commit.run();
    } catch (error) {
      if (db.inTransaction) rollback.run();
      rejectAll({ batch, outcomes }, error);
      return;
    }
    if (!durability) return settle({ batch, outcomes });
    awaitingSync.push({ batch, outcomes });
    if (!syncing) startSync(durability);
  }

  function startSync(d: Durability): void {
    const covered = awaitingSync;
    awaitingSync = [];
    syncing = new Promise<void>((resolve) => {
      d((error) => {
        for (const group of covered) {
          if (error) rejectAll(group, error);
          else settle(group);
        }
        syncing = undefined;
        if (awaitingSync.length > 0) startSync(d);
        resolve();
      });
    });
  }

  return {
    write<T, A>(fn: (arg: A) => T, arg?: A): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ fn: fn as (arg: unknown) => unknown, arg, resolve: resolve as (v: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    async drain() {
      flush();
      // Each completed fsync starts the next one while groups await it.
      while (syncing) await syncing;
    },
  };
}
