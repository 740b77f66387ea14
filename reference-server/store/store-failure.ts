// What a failed write tells its caller. SQLite's codes for a store that cannot take writes for now
// (a full disk, a failed write or sync, another process holding the database) become
// StoreUnavailable, which the server answers 503; other failures reach the caller as they are.
//
// A failure of the telemetry worker crosses to the event loop as a description. Structured cloning
// keeps only a native Error's message and drops the rest, and turns better-sqlite3's SqliteError (not
// a native Error to V8) into a plain object holding its code: sent as a reply, that object was an
// answer 200 with `{"code":"SQLITE_FULL"}` as its body, for rows that were never stored (issue 29).
import { StoreUnavailable } from './types.js';

/** SQLite's primary result codes of a store that cannot take writes, and what each means. */
const UNAVAILABLE: Record<string, string> = {
  SQLITE_FULL: 'the database or its disk is full',
  SQLITE_IOERR: 'the disk failed a read, write or sync',
  SQLITE_BUSY: 'another process holds the database',
  SQLITE_READONLY: 'the database file cannot be written',
};

/** The failure as the store's caller gets it: StoreUnavailable for the codes above, else itself. */
export function storeFailure(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  // Extended codes (SQLITE_IOERR_FSYNC) fall under their primary code.
  const reason = UNAVAILABLE[code.split('_', 2).join('_')];
  return reason === undefined ? error : new StoreUnavailable(`${reason} (${code})`, code);
}

/** What crosses the thread: the error's message and its code (SQLITE_FULL, ...). */
export interface FailureDescription {
  message: string;
  code?: string;
}

export function describeFailure(error: unknown): FailureDescription {
  const { message, code } = error as { message?: unknown; code?: unknown };
  return { message: typeof message === 'string' ? message : String(error), code: typeof code === 'string' ? code : undefined };
}

/** The Error the worker's failure was: its message, and its code as `code` (as SqliteError has it). */
export function failureFrom(description: FailureDescription): Error {
  const error = new Error(description.message) as Error & { code?: string };
  if (description.code !== undefined) error.code = description.code;
  return error;
}
