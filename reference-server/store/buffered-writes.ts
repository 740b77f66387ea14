// What group commit (group-commit.ts) asks of the store's buffered writes (its telemetry:
// sqlite-telemetry.ts) and of the thread that commits them (telemetry-committer.ts).

/**
 * The store's buffered writes: rows gathered per write, run together (group-commit.ts says why).
 * A write fails alone only in add(); a flush that fails fails the whole transaction, so add() must
 * refuse every row that SQLite would.
 */
export interface BufferedWrites<A, S = never, R = unknown> {
  /** Gathers a write's rows; throws (having changed nothing) to fail this write alone. */
  add(arg: A): void;
  /** Runs the rows gathered since the last flush (nothing when there are none). */
  flush(): void;
  /** Hands over the rows gathered since the last flush, for an off-thread commit, and starts afresh. */
  take(): R;
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

/** A group commit with no buffered writes (the store's tests of plain writes). */
export const NO_BUFFER: BufferedWrites<never, never, never> = {
  add() {
    throw new Error('this group commit has no buffered writes');
  },
  flush() {},
  take() {
    throw new Error('this group commit has no buffered writes');
  },
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
export interface Offload<S = never, R = unknown> {
  /** False once it cannot take batches (its thread has gone): they run here again. */
  readonly ready: boolean;
  /** done(null) once the rows are committed and on disk, done(error) when nothing of them was kept. */
  commit(rows: R, done: (error: Error | null) => void): void;
  /** done(null) once the rows of `scope` are folded in, done(error) when nothing of the fold was kept. */
  fold(scope: S, done: (error: Error | null) => void): void;
}
