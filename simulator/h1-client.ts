// A small HTTP/1.1 keep-alive client for the simulator's hot path: requests whose answer is only
// a status (telemetry, RPC replies, device-side RPC). undici's Pool parses every header into
// strings and objects and cost the simulator about twice autocannon's CPU per request; this client
// writes one string per request and reads only the status line and the framing of the body
// (content-length, chunked, or until close), as autocannon does. Long polls and downloads keep
// using undici (http.ts). Errors carry the codes classifyError() knows.
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export interface H1Options {
  /** http: or https: origin. */
  url: string;
  connections: number;
  localAddress?: string;
  /** No byte from the server for this long while a request waits: a `timeout` error. */
  timeoutMs: number;
  /** HTTPS without certificate checks. */
  insecure: boolean;
}

export interface H1Client {
  /** Send a request with a JSON body (or none); resolves with the response status, the body discarded. */
  status(method: string, path: string, body?: string): Promise<number>;
  /** Finish the requests in flight, then close every connection. */
  close(): Promise<void>;
  /** Close every connection now; requests in flight fail. */
  destroy(): void;
}

interface Pending {
  text: string;
  resolve: (status: number) => void;
  reject: (error: Error) => void;
}

/** How the current response's body ends. */
const enum Body {
  Head,
  Length,
  Chunked,
  UntilClose,
}

interface Connection {
  socket: Socket;
  current: Pending | null;
  buffer: string;
  body: Body;
  status: number;
  remaining: number;
  closeAfter: boolean;
}

function codedError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

// The promise's settle functions are caught by one shared executor: no closure per request.
let caughtResolve: Pending['resolve'] = () => {};
let caughtReject: Pending['reject'] = () => {};
function catchSettlers(resolve: Pending['resolve'], reject: Pending['reject']): void {
  caughtResolve = resolve;
  caughtReject = reject;
}

/** The value of header `name` (lower case, with its leading CRLF) in a lower-cased head, or null. */
export function headerValue(head: string, name: string): string | null {
  const at = head.indexOf(name);
  if (at < 0) return null;
  const end = head.indexOf('\r\n', at + name.length);
  return head.slice(at + name.length, end < 0 ? undefined : end).trim();
}

export function createH1Client(options: H1Options): H1Client {
  const url = new URL(options.url);
  const tls = url.protocol === 'https:';
  const port = Number(url.port || (tls ? 443 : 80));
  const hostHeader = `\r\nhost: ${url.host}\r\n`;
  const queue: Pending[] = [];
  const connections = new Set<Connection>();
  let idleWaiter: (() => void) | undefined;
  let inFlight = 0;

  const settled = () => {
    if (--inFlight === 0 && queue.length === 0) idleWaiter?.();
  };

  function finish(conn: Connection): void {
    const pending = conn.current;
    conn.current = null;
    conn.body = Body.Head;
    if (pending) {
      pending.resolve(conn.status);
      settled();
    }
    if (conn.closeAfter) conn.socket.end();
    else next(conn);
  }

  function fail(conn: Connection, error: Error): void {
    connections.delete(conn);
    const pending = conn.current;
    conn.current = null;
    conn.socket.destroy();
    if (pending) {
      pending.reject(error);
      settled();
    }
    pump();
  }

  /** Parse what has arrived; returns when more bytes are needed. */
  function parse(conn: Connection): void {
    for (;;) {
      if (conn.body === Body.Head) {
        const end = conn.buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = conn.buffer.slice(0, end + 2).toLowerCase();
        conn.buffer = conn.buffer.slice(end + 4);
        conn.status = Number(head.slice(9, 12));
        if (conn.status >= 100 && conn.status < 200) continue; // 100 Continue and the like
        conn.closeAfter = headerValue(head, '\r\nconnection:') === 'close';
        const length = headerValue(head, '\r\ncontent-length:');
        if (headerValue(head, '\r\ntransfer-encoding:')?.includes('chunked')) conn.body = Body.Chunked;
        else if (length !== null) {
          conn.body = Body.Length;
          conn.remaining = Number(length);
        } else if (conn.status === 204 || conn.status === 304) {
          conn.body = Body.Length;
          conn.remaining = 0;
        } else {
          conn.body = Body.UntilClose;
          conn.closeAfter = true;
        }
      }
      if (conn.body === Body.Length) {
        if (conn.buffer.length < conn.remaining) return;
        conn.buffer = conn.buffer.slice(conn.remaining);
        finish(conn);
        return;
      }
      if (conn.body === Body.Chunked) {
        const lineEnd = conn.buffer.indexOf('\r\n');
        if (lineEnd < 0) return;
        const size = parseInt(conn.buffer.slice(0, lineEnd), 16);
        if (size === 0) {
          // The last chunk, then optional trailers and an empty line.
          const rest = conn.buffer.slice(lineEnd + 2);
          const end = rest.startsWith('\r\n') ? 2 : rest.indexOf('\r\n\r\n') + 4;
          if (end < 2) return; // not found (-1 + 4): the trailers are still coming
          conn.buffer = rest.slice(end);
          finish(conn);
          return;
        }
        if (conn.buffer.length < lineEnd + 2 + size + 2) return;
        conn.buffer = conn.buffer.slice(lineEnd + 2 + size + 2);
        continue;
      }
      conn.buffer = ''; // Body.UntilClose: the body ends when the server closes
      return;
    }
  }

  function open(): Connection {
    const socketOptions = { host: url.hostname, port, localAddress: options.localAddress };
    const socket = tls ? connectTls({ ...socketOptions, servername: url.hostname, rejectUnauthorized: !options.insecure }) : connectTcp(socketOptions);
    const conn: Connection = { socket, current: null, buffer: '', body: Body.Head, status: 0, remaining: 0, closeAfter: false };
    connections.add(conn);
    socket.setNoDelay(true);
    socket.setEncoding('latin1'); // one char per byte: lengths count bytes
    socket.setTimeout(options.timeoutMs);
    socket.on('data', (chunk: string) => {
      conn.buffer += chunk;
      if (conn.current) parse(conn);
    });
    socket.on('timeout', () => {
      if (conn.current) fail(conn, codedError(`no answer within ${options.timeoutMs} ms`, 'UND_ERR_HEADERS_TIMEOUT'));
    });
    socket.on('error', (error) => fail(conn, error));
    socket.on('close', () => {
      connections.delete(conn);
      if (conn.current && conn.body === Body.UntilClose) finish(conn);
      else if (conn.current) fail(conn, codedError('the server closed the connection', 'UND_ERR_SOCKET'));
      pump();
    });
    return conn;
  }

  function next(conn: Connection): void {
    const pending = queue.shift();
    if (!pending) return;
    conn.current = pending;
    conn.status = 0;
    conn.closeAfter = false;
    conn.socket.write(pending.text);
  }

  /** Give queued requests to idle connections, opening new ones up to the limit. */
  function pump(): void {
    for (const conn of connections) {
      if (!queue.length) return;
      if (!conn.current && !conn.closeAfter && !conn.socket.destroyed) next(conn);
    }
    while (queue.length && connections.size < options.connections) next(open());
  }

  return {
    status(method, path, body) {
      const promise = new Promise<number>(catchSettlers);
      const length = body === undefined ? '' : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
      queue.push({ text: `${method} ${path} HTTP/1.1${hostHeader}${length}\r\n${body ?? ''}`, resolve: caughtResolve, reject: caughtReject });
      inFlight++;
      pump();
      return promise;
    },
    async close() {
      if (inFlight > 0) await new Promise<void>((resolve) => (idleWaiter = resolve));
      const closing = [...connections].map((conn) => (conn.socket.closed ? undefined : new Promise((resolve) => conn.socket.once('close', resolve).end())));
      await Promise.all(closing);
    },
    destroy() {
      for (const pending of queue.splice(0)) pending.reject(codedError('the client was destroyed', 'UND_ERR_DESTROYED'));
      for (const conn of [...connections]) fail(conn, codedError('the client was destroyed', 'UND_ERR_DESTROYED'));
    },
  };
}
