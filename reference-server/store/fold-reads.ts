// The folds of the buffered rows' log into their tables, and the reads that wait for them
// (group-commit.ts read): a read of a scope with rows waiting in the log runs once a fold has taken
// them in; at once when none waits. A fold is in flight like a batch, one at a time: on the offload's
// thread when it can take it, else here in a transaction of its own. It runs for the reads waiting
// (one fold covering all of them), else when the buffer says one is due.
import type { Database } from 'better-sqlite3';
import { storeFailure } from './store-failure.js';
import type { BufferedWrites, Offload } from './buffered-writes.js';

/** SQLite's largest max_page_count. */
const UNCAPPED_PAGES = 4294967294;

type Folding<S> = Pick<BufferedWrites<unknown, S>, 'rolledBack' | 'dueFold' | 'needsFold' | 'covering' | 'fold' | 'folded'>;

/** A read of the buffered writes that `scope` covers, waiting for their fold. */
interface PendingRead<S> {
  scope: S;
  read: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export interface FoldReads<S> {
  /** A fold is in flight: no batch may start meanwhile. */
  readonly folding: boolean;
  /** Reads wait for a fold. */
  readonly waiting: boolean;
  /** Runs `read` once the rows that `scope` covers are folded in (at once when none waits). */
  read<T>(scope: S, read: () => T): Promise<T>;
  /** Starts the fold the waiting reads need, else the one that is due; false when none is. */
  startFold(): boolean;
  /** Folds for every waiting read here and answers it (the group commit is closing). */
  finish(): void;
}

/** `folded`: told when a fold in flight has ended and its reads were answered (or wait for the next). */
export function createFoldReads<S>(db: Database, buffer: Folding<S>, offload: Offload<S> | undefined, folded: () => void): FoldReads<S> {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  let reads: PendingRead<S>[] = [];
  /** The scope of the fold in flight (here or offloaded). */
  let folding: S | undefined;

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

  function runRead({ read, resolve, reject }: PendingRead<S>): void {
    try {
      resolve(read());
    } catch (failure) {
      reject(failure as Error);
    }
  }

  /**
   * A read whose fold could not be committed (a full disk refuses it): its scope is folded for it
   * alone in a transaction that is rolled back afterwards, so that reads go on while writes cannot.
   * On a full disk the fold's pages stay in SQLite's cache (they would reach the WAL at COMMIT); a cap
   * on the file's pages (max_page_count, which tests fill a store with) counts them as they are made,
   * so it is lifted meanwhile: none of them reaches the file.
   */
  function readUncommitted({ scope, read, resolve, reject }: PendingRead<S>): void {
    const cap = db.pragma('max_page_count', { simple: true }) as number;
    try {
      db.pragma(`max_page_count = ${UNCAPPED_PAGES}`);
      begin.run();
      buffer.fold(scope);
      resolve(read());
    } catch (error) {
      reject(storeFailure(error) as Error);
    } finally {
      if (db.inTransaction) rollback.run();
      db.pragma(`max_page_count = ${cap}`);
    }
  }

  /**
   * The reads that no longer wait for anything run, and those the fold could not serve (the store
   * cannot take writes) read uncommitted; the others wait for the next fold.
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
    folded();
  }

  return {
    get folding() {
      return folding !== undefined;
    },
    get waiting() {
      return reads.length > 0;
    },
    read<T>(scope: S, read: () => T): Promise<T> {
      // No row of the scope waits (one that a fold in flight takes still waits until it is folded).
      if (!buffer.needsFold(scope)) return new Promise<T>((resolve) => resolve(read()));
      return new Promise<T>((resolve, reject) => reads.push({ scope, read, resolve: resolve as (value: unknown) => void, reject }));
    },
    startFold() {
      const scope = reads.length > 0 ? buffer.covering(reads.map((r) => r.scope)) : buffer.dueFold();
      if (scope === undefined) return false;
      folding = scope;
      if (offload?.ready) offload.fold(scope, foldDone);
      else foldDone(foldHere(scope));
      return true;
    },
    finish() {
      for (const r of reads) {
        if (foldHere(r.scope)) readUncommitted(r);
        else runRead(r);
      }
      reads = [];
    },
  };
}
