// A store failure that crosses from the telemetry worker to the event loop. Structured cloning keeps
// only a native Error's message and drops the rest, and turns better-sqlite3's SqliteError (not a
// native Error to V8) into a plain object holding its code: sent as a reply, that object was an
// answer 200 with `{"code":"SQLITE_FULL"}` as its body, for rows that were never stored. So the worker
// sends what the error says, and the loop makes an Error of it again.

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
