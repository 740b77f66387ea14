// One request on the wire (wire.ts) and, once it is done, its outcome: the record a device or the
// driver fills, the wire sends and times, and the caller's `done` reads.
import type { ErrorClass, PathName } from './metrics.js';

/** One request and, once it is done, its outcome. Filled by the caller up to `owner`, then by the wire. */
export interface Exchange {
  /** The measured path (the caller records the outcome), or null. */
  path: PathName | null;
  /** The request's text: request line, headers and body. */
  text: string;
  /** Keep the response body (latin1: one char per byte) in `body`. */
  wantBody: boolean;
  /** When the request was meant to leave (clock.ts ms). */
  intendedAt: number;
  /** How long the request may stay open, counted from intendedAt; older, it ends as `timeout`. */
  limitMs: number;
  done: (exchange: Exchange) => void;
  /** Whatever the caller needs back in `done` (its device). */
  owner: unknown;
  /** Called once the request's bytes are handed to the system (a device's first poll is open). */
  onWritten: ((exchange: Exchange) => void) | null;
  /** Set by the wire: when it went into the link's backlog (0: it never waited there), when it was written (0: never), when it ended. */
  queuedAt: number;
  sentAt: number;
  endedAt: number;
  /** The answer's status and (when wanted) body. */
  status: number;
  body: string;
  /** Why it failed; null when answered (whatever the status). */
  failure: ErrorClass | null;
}

export function exchange(path: PathName | null, text: string, wantBody: boolean, intendedAt: number, limitMs: number, done: (e: Exchange) => void, owner: unknown): Exchange {
  return { path, text, wantBody, intendedAt, limitMs, done, owner, onWritten: null, queuedAt: 0, sentAt: 0, endedAt: 0, status: 0, body: '', failure: null };
}
