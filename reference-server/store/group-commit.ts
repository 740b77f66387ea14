// Group commit: every write of one event-loop turn runs in one transaction, each inside its own
// savepoint (a failing write is rolled back alone and rejects only its own caller), and every
// caller is answered after the single COMMIT. With synchronous=FULL this is one fsync per turn
// instead of one per request.
import type { Database } from 'better-sqlite3';

interface PendingWrite {
  fn: (arg: unknown) => unknown;
  arg: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommit {
  write<T, A = undefined>(fn: (arg: A) => T, arg?: A): Promise<T>;
  /** Commit whatever is queued now (used at close). */
  flushNow(): void;
}

export function createGroupCommit(db: Database): GroupCommit {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const savepoint = db.prepare('SAVEPOINT write');
  const release = db.prepare('RELEASE write');
  const rollbackTo = db.prepare('ROLLBACK TO write');
  let queue: PendingWrite[] = [];
  let scheduled = false;

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
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      if (outcomes[i].ok) batch[i].resolve(outcomes[i].value);
      else batch[i].reject(outcomes[i].value);
    }
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
    flushNow: flush,
  };
}
