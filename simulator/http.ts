// One explicit set of undici Pools per target and source address: a pool for long polls (one
// connection per open poll, so a held poll never blocks a short request) and a pool for short
// requests with a deliberate number of connections. Timeouts are set on purpose for each.
import { Pool, type Dispatcher } from 'undici';
import { createH1Client, type H1Client } from './h1-client.js';
import type { ErrorClass } from './metrics.js';

export interface TargetOptions {
  /** Base URL; its path (if any) prefixes every request path. */
  url: string;
  /** Short-request connections per source address. */
  connections: number;
  /** Long-poll connections per source address (one per open poll). */
  pollConnections: number;
  /** Source addresses (undici `localAddress`); empty means the system's choice. */
  localAddresses: string[];
  /** A poll is allowed this long beyond its own timeout before it counts as a timeout. */
  pollTimeoutMs: number;
  requestTimeoutMs: number;
  /** HTTPS without certificate checks (dhi serve's self-signed certificate). */
  insecure: boolean;
}

/** undici options for a TLS peer whose certificate is not to be checked. */
export function tlsOptions(insecure: boolean): { connect?: { rejectUnauthorized: false } } {
  return insecure ? { connect: { rejectUnauthorized: false } } : {};
}

export interface Target {
  basePath: string;
  /** The pools a device uses, picked by its index so devices spread over source addresses. */
  shortPool(index: number): Dispatcher;
  /** The lean client for status-only requests (h1-client.ts), with the short pool's connections. */
  statusClient(index: number): H1Client;
  pollPool(index: number): Dispatcher;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

export interface Reply {
  status: number;
  body: string;
}

const POLL_GRACE_MS = 15_000;

export function createTarget(options: TargetOptions): Target {
  const url = new URL(options.url);
  const addresses = options.localAddresses.length ? options.localAddresses : [undefined];
  const make = (connections: number, timeoutMs: number, localAddress?: string) =>
    new Pool(url.origin, {
      connections,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      connectTimeout: 10_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      ...tlsOptions(options.insecure),
      ...(localAddress ? { localAddress } : {}),
    });
  const short = addresses.map((a) => make(options.connections, options.requestTimeoutMs, a));
  const polls = options.pollConnections > 0 ? addresses.map((a) => make(options.pollConnections, options.pollTimeoutMs + POLL_GRACE_MS, a)) : [];
  const fast = addresses.map((a) => createH1Client({ url: options.url, connections: options.connections, localAddress: a, timeoutMs: options.requestTimeoutMs, insecure: options.insecure }));
  const all = [...short, ...polls];
  return {
    basePath: url.pathname.replace(/\/+$/, ''),
    shortPool: (index) => short[index % short.length],
    statusClient: (index) => fast[index % fast.length],
    pollPool: (index) => polls[index % polls.length] ?? short[index % short.length],
    async close() {
      await Promise.all([...all.map((p) => p.close()), ...fast.map((c) => c.close())]);
    },
    async destroy() {
      for (const c of fast) c.destroy();
      await Promise.all(all.map((p) => p.destroy()));
    },
  };
}

export const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

/** Send and read the whole body as text. */
export async function send(
  dispatcher: Dispatcher,
  method: Dispatcher.HttpMethod,
  path: string,
  body?: string,
  signal?: AbortSignal,
  headers: Record<string, string> = JSON_HEADERS,
): Promise<Reply> {
  const response = await dispatcher.request({ method, path, body, headers, signal });
  return { status: response.statusCode, body: await response.body.text() };
}

/**
 * A GET that calls `onSent` once the request is on the wire (undici's onRequestSent hook, which
 * the promise API does not offer): how a device learns that its first poll is open.
 */
export function sendNotifying(dispatcher: Dispatcher, path: string, signal: AbortSignal, onSent: () => void): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let status = 0;
    const chunks: Buffer[] = [];
    let abortRequest: ((error?: Error) => void) | undefined;
    const onAbort = () => abortRequest?.(signal.reason as Error);
    const handler = {
      onConnect(abort: (error?: Error) => void) {
        abortRequest = abort;
        if (signal.aborted) abort(signal.reason as Error);
        else signal.addEventListener('abort', onAbort, { once: true });
      },
      onHeaders(code: number) {
        status = code;
        return true;
      },
      onData(chunk: Buffer) {
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        signal.removeEventListener('abort', onAbort);
        resolve({ status, body: Buffer.concat(chunks).toString() });
      },
      onError(error: Error) {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
      onRequestSent: onSent,
    };
    dispatcher.dispatch({ method: 'GET', path, headers: JSON_HEADERS }, handler as Dispatcher.DispatchHandler);
  });
}

/** Send and read the whole body as bytes (firmware). */
export async function sendForBytes(dispatcher: Dispatcher, path: string, signal?: AbortSignal): Promise<{ status: number; bytes: Buffer }> {
  const response = await dispatcher.request({ method: 'GET', path, headers: JSON_HEADERS, signal });
  return { status: response.statusCode, bytes: Buffer.from(await response.body.arrayBuffer()) };
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const CONNECT_CODES = new Set(['ECONNREFUSED', 'EADDRNOTAVAIL', 'EADDRINUSE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EMFILE']);

/** Classify a failed request by its error code (never by message). */
export function classifyError(error: unknown): ErrorClass {
  let current = error as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 3; depth++) {
    const code = current.code;
    if (code && TIMEOUT_CODES.has(code)) return 'timeout';
    if (code && RESET_CODES.has(code)) return 'reset';
    if (code && CONNECT_CODES.has(code)) return 'connect';
    current = current.cause as typeof current;
  }
  return 'other';
}

export function isAbort(error: unknown): boolean {
  const e = error as { name?: string; code?: string };
  return e?.name === 'AbortError' || e?.code === 'UND_ERR_ABORTED' || e?.code === 'ABORT_ERR';
}

const IPV4_LOOPBACK = /^127\.\d+\.\d+\.\d+$/;

/** Whether a URL names an IPv4 loopback address (where 127.0.0.x source addresses work). */
export function isIpv4Loopback(url: string): boolean {
  return IPV4_LOOPBACK.test(new URL(url).hostname);
}
