// The simulator's HTTP/1.1 client. Every virtual device has a link of its own: its requests go
// over its own keep-alive connections, never over another device's. A request that finds all of
// its device's connections busy opens another one, up to `maxConnectionsPerLink`; beyond that (or
// when the process is at its descriptor budget) it waits in the device's backlog, and that wait is
// reported apart (queuedAt), never as the target's time. Requests carry their deadline: a sweep a
// few times a second ends the ones older than it as `timeout` (no timer per request). Responses
// are read by response-parser.ts.
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { monoNow } from './clock.js';
import type { Exchange } from './exchange.js';
import { classifyError } from './http.js';
import type { ErrorClass } from './metrics.js';
import { endsAtClose, expectResponse, IDLE_LIMIT_MS, newReader, readResponse, type ResponseReader } from './response-parser.js';

export interface WireOptions {
  /** http: or https: origin. */
  url: string;
  localAddress?: string;
  insecure: boolean;
  /** Connections one link (device) may open. */
  maxConnectionsPerLink: number;
  /** Connections the whole process may hold (its descriptor budget). */
  maxConnections: number;
  /** Called once what a socket brought is handled (the loop woke for it, at `now`): the pacer's realign(). */
  woke?: (now: number) => void;
}

export interface Link {
  /** Send now: over an idle connection of this link, a new one, or after a wait in its backlog. */
  send(exchange: Exchange): void;
  /**
   * Open a connection ahead of the link's first request (when it has none and the budget allows),
   * idle until then: usable for IDLE_LIMIT_MS. `settled` hears once it is connected, or has failed.
   */
  connect(settled: () => void): void;
  /** Connections this link has open. */
  readonly open: number;
}

export interface Wire {
  link(): Link;
  /** Connections open now, the most ever open at once, and how many were opened in all. */
  readonly open: number;
  readonly peakOpen: number;
  readonly opened: number;
  /**
   * End everything and close every connection: a request in flight past its limit as `timeout`
   * (the sweep would have ended it), any other in flight as `failure`, one still waiting as `dropped`.
   */
  destroy(failure: ErrorClass): void;
}

interface Conn extends ResponseReader {
  socket: Socket;
  link: LinkState;
  current: Exchange | null;
  /** When it last became idle (its reader knows how long it may stay so). */
  idleSince: number;
  /** Position in the wire's list of connections (for the sweep). */
  slot: number;
}

interface LinkState extends Link {
  open: number;
  idle: Conn[];
  backlog: Exchange[];
}

/** How often deadlines are checked: a request ends at most this much after its limit. */
const SWEEP_MS = 200;
/** Where every plain-TCP connection of the process reads: each read is parsed (copied into a string) before the next. */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
const CONN = Symbol('connection');
type OwnedSocket = Socket & { [CONN]: Conn };
export function createWire(options: WireOptions): Wire {
  const url = new URL(options.url);
  const tls = url.protocol === 'https:';
  const port = Number(url.port || (tls ? 443 : 80));
  const socketOptions = { host: url.hostname, port, localAddress: options.localAddress };
  /** Every open connection, for the sweep; a connection knows its slot. */
  const conns: Conn[] = [];
  /** Links with a backlog; those of them under their own cap wait for the process's budget, oldest first. */
  const waiting = new Set<LinkState>();
  const starved: LinkState[] = [];
  let peakOpen = 0;
  let opened = 0;
  let destroyed = false;
  /**
   * No request on the wire is past its limit before this (clock.ts ms): the sweep walks the
   * connections only from then on. Every request's limit is seconds long, and long polls hold
   * most connections, so most sweeps would otherwise walk them all to find nothing.
   */
  let nextLimitAt = Infinity;
  const woke = options.woke ?? (() => {});

  function write(conn: Conn, ex: Exchange, now: number): void {
    conn.current = ex;
    expectResponse(conn);
    ex.sentAt = now;
    nextLimitAt = Math.min(nextLimitAt, ex.intendedAt + ex.limitMs);
    if (ex.onWritten) conn.socket.write(ex.text, () => ex.onWritten?.(ex));
    else conn.socket.write(ex.text);
  }

  /** Requests at the head of a link's backlog past their limit end as `dropped`: they never left. */
  function expire(link: LinkState, now: number): void {
    if (!link.backlog.length) return;
    while (link.backlog.length && now - link.backlog[0].intendedAt > link.backlog[0].limitMs) drop(link.backlog.shift() as Exchange);
    if (!link.backlog.length) waiting.delete(link);
  }

  /** The next request of a link's backlog that is still within its limit. */
  function dequeue(link: LinkState, now: number): Exchange | undefined {
    if (!link.backlog.length) return undefined;
    expire(link, now);
    const ex = link.backlog.shift();
    if (!link.backlog.length) waiting.delete(link);
    return ex;
  }

  function drop(ex: Exchange): void {
    ex.failure = 'dropped';
    ex.endedAt = monoNow();
    ex.done(ex);
  }

  /** The connection is free: the next request of its link's backlog, or idle. */
  function release(conn: Conn, now: number): void {
    conn.current = null;
    if (conn.closeAfter) return retire(conn, true);
    const next = dequeue(conn.link, now);
    if (next) return write(conn, next, now);
    conn.idleSince = now;
    conn.link.idle.push(conn);
  }

  /** Its answer is complete, read at `now`. */
  function finish(conn: Conn, now: number): void {
    const ex = conn.current as Exchange;
    ex.endedAt = now;
    release(conn, now);
    ex.done(ex);
  }

  function fail(conn: Conn, failure: ErrorClass): void {
    const ex = conn.current;
    conn.current = null;
    retire(conn, false);
    if (!ex) return;
    ex.failure = failure;
    ex.endedAt = monoNow();
    ex.done(ex);
  }

  /**
   * Take a connection out of use (closed, failed, idle too long) and close it: its descriptor goes
   * to the oldest link waiting for the process's budget, else to its own link's backlog.
   */
  function retire(conn: Conn, gently: boolean): void {
    if (conn.slot < 0) return;
    const last = conns.pop() as Conn;
    if (last !== conn) {
      conns[conn.slot] = last;
      last.slot = conn.slot;
    }
    conn.slot = -1;
    const link = conn.link;
    link.open--;
    const at = link.idle.indexOf(conn);
    if (at >= 0) link.idle.splice(at, 1);
    if (gently) conn.socket.end();
    else conn.socket.destroy();
    if (destroyed) return;
    let taker = starved.shift();
    while (taker && !taker.backlog.length) taker = starved.shift();
    if (!taker && link.backlog.length) taker = link;
    const next = taker && dequeue(taker, monoNow());
    if (taker && next) open(taker, next);
  }

  /** A new connection of the link, writing `ex` at once (queued until connected), or idle. */
  function open(link: LinkState, ex: Exchange | null): Conn {
    // Plain TCP reads into one shared buffer, bypassing the stream machinery (`onread`), told of its
    // connection (no lookup on the socket per read); TLS reads through 'data'.
    const onread = { buffer: READ_BUFFER, callback: (bytes: number) => onRead(conn, bytes) };
    const socket = tls ? connectTls({ ...socketOptions, servername: url.hostname, rejectUnauthorized: !options.insecure }) : connectTcp({ ...socketOptions, onread });
    // Object.assign onto the reader, not a spread of it: spread copies went to dictionary mode, a map
    // per connection, and every access to a connection was a megamorphic lookup (V8's IC log).
    const conn: Conn = Object.assign(newReader(), { socket, link, current: null, idleSince: 0, slot: conns.length });
    (socket as OwnedSocket)[CONN] = conn;
    conns.push(conn);
    link.open++;
    opened++;
    peakOpen = Math.max(peakOpen, conns.length);
    socket.setNoDelay(true);
    if (tls) socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
    if (ex) write(conn, ex, monoNow());
    return conn;
  }

  function connectAhead(link: LinkState, settled: () => void): void {
    if (destroyed || link.open > 0 || conns.length >= options.maxConnections) return settled();
    const conn = open(link, null);
    conn.idleSince = monoNow();
    link.idle.push(conn);
    // Set-up only (one per device): the listeners are gone once either has fired.
    const connected = tls ? 'secureConnect' : 'connect';
    const done = () => {
      conn.socket.off(connected, done).off('close', done);
      settled();
    };
    conn.socket.once(connected, done).once('close', done);
  }

  /** What a read brought, at `now` (one reading of the clock for the answer's end, the connection's idle time and the pacer). */
  function received(conn: Conn, text: string, now: number): void {
    conn.buffer += text;
    if (conn.current && readResponse(conn, conn.current)) finish(conn, now);
    woke(now);
  }
  /** One char per byte (latin1): lengths count bytes. */
  function onRead(conn: Conn, bytes: number): boolean {
    received(conn, READ_BUFFER.toString('latin1', 0, bytes), monoNow());
    return true;
  }
  // The other handlers are shared by every connection: `this` is the socket, which knows its connection.
  function onData(this: OwnedSocket, chunk: Buffer): void {
    received(this[CONN], chunk.toString('latin1'), monoNow());
  }
  function onError(this: OwnedSocket, error: Error): void {
    fail(this[CONN], classifyError(error));
  }
  function onClose(this: OwnedSocket): void {
    const conn = this[CONN];
    // A body framed by the end of the connection is complete now; any other request in flight was cut.
    if (conn.current && endsAtClose(conn)) finish(conn, monoNow());
    else fail(conn, 'reset');
  }

  /** End the requests older than their limit: `dropped` if still in a backlog, `timeout` on the wire. */
  function sweep(): void {
    const now = monoNow();
    for (const link of waiting) expire(link, now);
    if (now >= nextLimitAt) {
      nextLimitAt = Infinity;
      for (let i = conns.length - 1; i >= 0; i--) {
        const ex = conns[i]?.current;
        if (!ex) continue;
        if (now - ex.intendedAt > ex.limitMs) fail(conns[i], 'timeout');
        else nextLimitAt = Math.min(nextLimitAt, ex.intendedAt + ex.limitMs);
      }
    }
    woke(now);
  }
  const sweeper = setInterval(sweep, SWEEP_MS);

  function send(link: LinkState, ex: Exchange): void {
    if (destroyed) return drop(ex);
    const now = monoNow();
    for (let conn = link.idle.pop(); conn; conn = link.idle.pop()) {
      // A connection opened ahead has had no answer yet to say how long the server keeps it.
      if (now - conn.idleSince < (conn.idleLimitMs || IDLE_LIMIT_MS)) return write(conn, ex, now);
      retire(conn, true); // idle too long: the server may be closing it; a fresh one is safer
    }
    if (!link.backlog.length && link.open < options.maxConnectionsPerLink && conns.length < options.maxConnections) {
      open(link, ex);
      return;
    }
    // Wait for one of this link's connections, or for the process's budget.
    ex.queuedAt = now;
    link.backlog.push(ex);
    waiting.add(link);
    if (link.open < options.maxConnectionsPerLink && !starved.includes(link)) starved.push(link);
  }

  return {
    link() {
      const link: LinkState = { open: 0, idle: [], backlog: [], send: (ex) => send(link, ex), connect: (settled) => connectAhead(link, settled) };
      return link;
    },
    get open() {
      return conns.length;
    },
    get peakOpen() {
      return peakOpen;
    },
    get opened() {
      return opened;
    },
    destroy(failure) {
      destroyed = true;
      clearInterval(sweeper);
      for (const link of waiting) for (const ex of link.backlog.splice(0)) drop(ex);
      waiting.clear();
      starved.length = 0;
      const now = monoNow();
      for (const conn of [...conns]) {
        const ex = conn.current;
        fail(conn, ex && now - ex.intendedAt >= ex.limitMs ? 'timeout' : failure);
      }
    },
  };
}
