// Connection protection shared by the HTTP and HTTPS listeners, and a listen() that fails with one
// line naming the port's option.
//
// Node's requestTimeout covers receiving a request (headers and body) and ends once the body is
// complete, so slow-header and slow-body clients are cut (408, close) while a long poll, whose
// request is complete at once, waits as long as its own timeout. A connection that sends nothing is
// covered by the header timeout too (Node counts it from accept), an unfinished TLS handshake by
// handshakeTimeout, idle keep-alive connections by keepAliveTimeout.
import type { Server as HttpServer, ServerOptions, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from './config.js';
import { errorBody, ErrorCode, SHUTTING_DOWN } from './errors.js';

/** A listener that could not start: `message` names the address and the option to change. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenError';
  }
}

/** Options for http(s).createServer; the same values are set on Fastify's own HTTP server. */
export function connectionOptions(config: Readonly<ServerConfig>): ServerOptions {
  return {
    headersTimeout: config.headerTimeoutMs,
    requestTimeout: config.bodyTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Node checks the two timeouts above on this interval (30 s by default, longer than the timeouts).
    connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(config.headerTimeoutMs / 4))),
  };
}

const DROP_WARNING_INTERVAL_MS = 10_000;

/** Applies the timeouts and the connection cap; refused connections are counted in a warning. */
export function protect(server: HttpServer, config: Readonly<ServerConfig>, log: FastifyBaseLogger, name: string): void {
  Object.assign(server, connectionOptions(config));
  server.maxConnections = config.maxConnections;
  let dropped = 0;
  let warnedAt = 0;
  server.on('drop', () => {
    dropped++;
    if (Date.now() - warnedAt < DROP_WARNING_INTERVAL_MS) return;
    warnedAt = Date.now();
    log.warn(`${name}: ${dropped} connection(s) refused so far: --max-connections ${config.maxConnections} reached`);
  });
}

const REASONS: Record<string, string> = {
  EADDRINUSE: 'the port is already in use',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'the address is not on this machine',
};

/** The usual listen() failures as a ListenError that names the option; other errors unchanged. */
export function listenError(error: unknown, host: string, port: number, option: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code ? REASONS[code] : undefined;
  return reason ? new ListenError(`cannot listen on ${host}:${port} (${option}): ${reason}`) : error;
}

export async function listenOn(server: HttpServer, host: string, port: number, backlog: number, option: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(listenError(error, host, port, option));
    server.once('error', onError).listen(port, host, backlog, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** How often a drain closes the keep-alive connections that are idle (not a request in sight). */
const DRAIN_IDLE_SWEEP_MS = 200;
const ignore = () => undefined;

/**
 * Stops accepting and resolves once every connection has closed. Unlike http's server.close(),
 * idle keep-alive connections are not closed at once: a client whose next request is already on
 * its way would get a reset. While draining, every answer carries Connection: close and a request
 * that arrives is answered 503 (app.ts), so a busy client leaves after its next answer; the
 * connections that stay idle are closed by a sweep every DRAIN_IDLE_SWEEP_MS.
 */
export function drain(server: HttpServer): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_IDLE_SWEEP_MS);
    // net.Server's close: stop accepting, call back once the last connection has gone.
    NetServer.prototype.close.call(server, () => {
      clearInterval(sweep);
      // http's own close, now that nothing is left to close, stops its connection-timeout checks.
      server.close(ignore);
      resolve();
    });
  });
}

/**
 * Node's own record of the response a connection is serving: set when the response is given the
 * socket, cleared when it finishes. Undocumented, but kept since Node's first releases and relied
 * on by shutdown libraries (http-terminator); it costs nothing per request and holds nothing once
 * the answer is out.
 */
type ServingSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * The connections of a server, so that a close that runs out of time answers the requests they
 * are serving 503 (ThingsBoard's error body) before dropping them. Tracked per connection: a set
 * entry and a close listener per response cost a long poll about a quarter of its CPU (dhi bench
 * --baseline). One shared listener, no closures.
 */
export function trackConnections(server: HttpServer): Set<Socket> {
  const open = new Set<Socket>();
  // HTTPS serves requests on the TLS socket, which exists once the handshake is done.
  server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', (socket: Socket) => {
    open.add(socket);
    socket.on('close', forget);
  });
  function forget(this: Socket) {
    open.delete(this);
  }
  return open;
}

export function answerUnavailable(open: Set<Socket>): void {
  const body = JSON.stringify(errorBody(503, ErrorCode.GENERAL, SHUTTING_DOWN));
  for (const socket of open) {
    const res = (socket as ServingSocket)._httpMessage;
    if (!res || res.headersSent || res.destroyed) continue;
    res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
  }
  open.clear();
}
