// Reading HTTP/1.1 responses off a connection for the simulator's wire (wire.ts): by their framing
// only (status line, content-length or chunked, keep-alive hints), as autocannon does; the body is
// kept when the caller asks for it. A connection holds a reader (what has arrived and where the
// current response stands); the wire appends what it reads and calls readResponse.

/** How the current response's body ends. */
export const enum Framing {
  Head,
  Length,
  Chunked,
  UntilClose,
}

/** A connection's side of the parse: the bytes not yet consumed (latin1, one char per byte) and the current response's state. */
export interface ResponseReader {
  buffer: string;
  framing: Framing;
  /** Body bytes still to come (Framing.Length). */
  remaining: number;
  /** The server closes the connection after this response. */
  closeAfter: boolean;
  /** How long the connection may stay idle before the server may close it (0: not known before its first answer). */
  idleLimitMs: number;
}

/** Where a response goes: its status and, when wanted, its body. */
export interface ResponseTarget {
  wantBody: boolean;
  status: number;
  body: string;
}

/**
 * As undici: a connection idle this long is not reused (a fresh one is safer than one the server
 * may be closing), unless the server says how long it keeps it (`keep-alive: timeout=N`): then
 * until 1 s before that, for at most 10 minutes. A connection that has had no answer yet (opened
 * ahead of its first request) has no hint: this limit too.
 */
export const IDLE_LIMIT_MS = 4_000;
const KEEP_ALIVE_MARGIN_MS = 1_000;
const KEEP_ALIVE_MAX_MS = 600_000;

/** A new connection's reader. */
export const newReader = (): ResponseReader => ({ buffer: '', framing: Framing.Head, remaining: 0, closeAfter: false, idleLimitMs: 0 });

/** A request went out: what arrives next is the head of its response. */
export function expectResponse(reader: ResponseReader): void {
  reader.framing = Framing.Head;
}

/** The current response's body ends when the server closes the connection. */
export const endsAtClose = (reader: ResponseReader): boolean => reader.framing === Framing.UntilClose;

/** The value of header `name` (lower case, with its leading CRLF) in a lower-cased head, or null. */
export function headerValue(head: string, name: string): string | null {
  const at = head.indexOf(name);
  if (at < 0) return null;
  const end = head.indexOf('\r\n', at + name.length);
  return head.slice(at + name.length, end < 0 ? undefined : end).trim();
}

/** `keep-alive: timeout=5` -> how long a connection may be reused after its last answer. */
function idleLimit(head: string): number {
  const hint = headerValue(head, '\r\nkeep-alive:');
  const at = hint?.indexOf('timeout=') ?? -1;
  if (at < 0) return IDLE_LIMIT_MS;
  const seconds = parseInt((hint as string).slice(at + 8), 10);
  return seconds > 0 ? Math.min(KEEP_ALIVE_MAX_MS, seconds * 1000 - KEEP_ALIVE_MARGIN_MS) : IDLE_LIMIT_MS;
}

/**
 * Read a head off the buffer into the reader and `target`: false while it is incomplete. After an
 * interim (1xx) answer the reader still waits for a head.
 */
function readHead(reader: ResponseReader, target: ResponseTarget): boolean {
  const end = reader.buffer.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = reader.buffer.slice(0, end + 2).toLowerCase();
  reader.buffer = reader.buffer.slice(end + 4);
  const status = Number(head.slice(9, 12));
  if (status >= 100 && status < 200) return true;
  target.status = status;
  reader.closeAfter = headerValue(head, '\r\nconnection:') === 'close';
  if (reader.idleLimitMs === 0) reader.idleLimitMs = idleLimit(head); // the server's hint, read once a connection
  const length = headerValue(head, '\r\ncontent-length:');
  if (headerValue(head, '\r\ntransfer-encoding:')?.includes('chunked')) reader.framing = Framing.Chunked;
  else if (length !== null) {
    reader.framing = Framing.Length;
    reader.remaining = Number(length);
  } else if (status === 204 || status === 304) {
    reader.framing = Framing.Length;
    reader.remaining = 0;
  } else {
    reader.framing = Framing.UntilClose;
    reader.closeAfter = true;
  }
  return true;
}

/** Parse what has arrived of the response into `target`: true once it is complete, false while more bytes are needed. */
export function readResponse(reader: ResponseReader, target: ResponseTarget): boolean {
  for (;;) {
    if (reader.framing === Framing.Head) {
      // Each head is parsed: comparing it with the connection's last one, to skip that, cost more
      // (V8's startsWith on a ~120-byte head: ~8k instructions, the parse ~4k).
      if (!readHead(reader, target)) return false;
      if (reader.framing === Framing.Head) continue; // 100 Continue and the like
    }
    if (reader.framing === Framing.Length) {
      if (reader.buffer.length < reader.remaining) return false;
      if (target.wantBody) target.body = reader.buffer.slice(0, reader.remaining);
      reader.buffer = reader.buffer.slice(reader.remaining);
      return true;
    }
    if (reader.framing === Framing.Chunked) {
      const lineEnd = reader.buffer.indexOf('\r\n');
      if (lineEnd < 0) return false;
      const size = parseInt(reader.buffer.slice(0, lineEnd), 16);
      if (size === 0) {
        // The last chunk, then optional trailers and an empty line.
        const rest = reader.buffer.slice(lineEnd + 2);
        const end = rest.startsWith('\r\n') ? 2 : rest.indexOf('\r\n\r\n') + 4;
        if (end < 2) return false; // not found (-1 + 4): the trailers are still coming
        reader.buffer = rest.slice(end);
        return true;
      }
      if (reader.buffer.length < lineEnd + 2 + size + 2) return false;
      if (target.wantBody) target.body += reader.buffer.slice(lineEnd + 2, lineEnd + 2 + size);
      reader.buffer = reader.buffer.slice(lineEnd + 2 + size + 2);
      continue;
    }
    if (target.wantBody) target.body += reader.buffer; // Framing.UntilClose: the body ends when the server closes
    reader.buffer = '';
    return false;
  }
}
