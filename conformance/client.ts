// HTTP to one origin: one explicit undici Pool per target, every exchange recorded with a curl line.
import { createHash } from 'node:crypto';
import { Pool } from 'undici';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD';
export type Query = Record<string, string | number | boolean | (string | number)[] | undefined>;

export interface FilePart {
  field: string;
  fileName: string;
  contentType: string;
  bytes: Buffer;
}

export interface RequestSpec {
  method: Method;
  /** Path below the base URL, starting with `/`. */
  path: string;
  /** An object (arrays become repeated parameters) or a raw query string without `?`. */
  query?: Query | string;
  /** A JSON document, sent with Content-Type application/json. */
  json?: unknown;
  /** A raw body (sent as is, Content-Type application/json unless headers say otherwise). */
  body?: string | Buffer;
  file?: FilePart;
  headers?: Record<string, string>;
  /** Abort when no complete answer arrives within this many ms (the request then throws). */
  deadlineMs?: number;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** Media type of the body, lower case, without parameters; '' when absent. */
  mediaType: string;
  bytes: Buffer;
  text: string;
  /** The parsed body; undefined when the body is empty or not JSON (see jsonError). */
  json: unknown;
  jsonError?: string;
}

export interface Exchange {
  channel: 'device' | 'control';
  /** set-up: devices created for the case; case: the case itself; clean-up: what undid it. */
  phase?: 'set-up' | 'case' | 'clean-up';
  operationId?: string;
  startedAt: number;
  durationMs: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
  curl: string;
}

export interface HttpTarget {
  baseUrl: string;
  send(spec: RequestSpec, channel: Exchange['channel'], record: (e: Exchange) => void): Promise<Reply>;
  close(): Promise<void>;
}

export interface HttpOptions {
  baseUrl: string;
  insecure: boolean;
  /** Long polls hold a connection each, so this bounds how many cases can wait at once. */
  connections: number;
  /** Upper bound for any one request; cases that wait on purpose set deadlineMs below it. */
  requestTimeoutMs: number;
}

/** A request that got no answer (network error or deadline); the exchange is already recorded. */
export class RequestFailed extends Error {
  constructor(message: string, readonly timedOut: boolean) {
    super(message);
    this.name = 'RequestFailed';
  }
}

const TRANSCRIPT_LIMIT = 4000;

export function createHttpTarget(options: HttpOptions): HttpTarget {
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const pool = new Pool(base.origin, {
    connections: options.connections,
    pipelining: 1,
    connect: { rejectUnauthorized: !options.insecure, timeout: 5000 },
    headersTimeout: options.requestTimeoutMs,
    bodyTimeout: options.requestTimeoutMs,
    keepAliveTimeout: 4000,
  });

  async function send(spec: RequestSpec, channel: Exchange['channel'], record: (e: Exchange) => void): Promise<Reply> {
    const path = prefix + spec.path + queryString(spec.query);
    const { headers, body } = encodeBody(spec);
    const url = base.origin + path;
    const startedAt = Date.now();
    const exchange: Exchange = {
      channel,
      startedAt,
      durationMs: 0,
      request: { method: spec.method, url, headers: redact(headers), body: body === undefined ? undefined : describeBody(body, headers['content-type']) },
      curl: curlLine(spec.method, url, headers, spec.file ?? body, options.insecure),
    };
    const signal = spec.deadlineMs === undefined ? undefined : AbortSignal.timeout(spec.deadlineMs);
    try {
      const res = await pool.request({ method: spec.method, path, headers, body, signal });
      const bytes = Buffer.from(await res.body.arrayBuffer());
      const reply = toReply(res.statusCode, res.headers, bytes);
      exchange.response = { status: reply.status, headers: reply.headers, body: describeBody(bytes, reply.mediaType) };
      return reply;
    } catch (error) {
      const timedOut = signal?.aborted ?? false;
      exchange.error = timedOut ? `no answer within ${spec.deadlineMs} ms (aborted)` : (error as Error).message;
      throw new RequestFailed(`${spec.method} ${url}: ${exchange.error}`, timedOut);
    } finally {
      exchange.durationMs = Date.now() - startedAt;
      record(exchange);
    }
  }

  return { baseUrl: options.baseUrl.replace(/\/+$/, ''), send, close: () => pool.close() };
}

export function queryString(query: RequestSpec['query']): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query ? `?${query}` : '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function encodeBody(spec: RequestSpec): { headers: Record<string, string>; body?: string | Buffer } {
  const headers: Record<string, string> = {};
  let body: string | Buffer | undefined;
  if (spec.file) {
    const boundary = `----dhi${createHash('sha1').update(spec.file.fileName + Date.now()).digest('hex').slice(0, 16)}`;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${spec.file.field}"; filename="${spec.file.fileName}"\r\nContent-Type: ${spec.file.contentType}\r\n\r\n`;
    body = Buffer.concat([Buffer.from(head), spec.file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
  } else if (spec.json !== undefined) {
    body = JSON.stringify(spec.json);
    headers['content-type'] = 'application/json';
  } else if (spec.body !== undefined) {
    body = spec.body;
    headers['content-type'] = 'application/json';
  }
  for (const [k, v] of Object.entries(spec.headers ?? {})) headers[k.toLowerCase()] = v;
  return { headers, body };
}

function toReply(status: number, raw: Record<string, string | string[] | undefined>, bytes: Buffer): Reply {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  const mediaType = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const text = bytes.toString('utf8');
  const reply: Reply = { status, headers, mediaType, bytes, text, json: undefined };
  if (text.trim()) {
    try {
      reply.json = JSON.parse(text);
    } catch (error) {
      reply.jsonError = (error as Error).message;
    }
  }
  return reply;
}

function isTextual(mediaType: string | undefined): boolean {
  return !mediaType || /json|text|xml|x-www-form-urlencoded/.test(mediaType);
}

/** Text bodies as text (cut at a few KB); binary ones as size and SHA-256. */
export function describeBody(body: string | Buffer, mediaType: string | undefined): string {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  if (!isTextual(mediaType) || (typeof body !== 'string' && bytes.includes(0))) {
    return `<${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}>`;
  }
  const text = bytes.toString('utf8');
  return text.length > TRANSCRIPT_LIMIT ? `${text.slice(0, TRANSCRIPT_LIMIT)}... <${bytes.length} bytes in all>` : text;
}

/** The control API's JWT never lands in a report. */
function redact(headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  for (const name of ['x-authorization', 'authorization']) if (out[name]) out[name] = 'Bearer $DHI_JWT';
  return out;
}

function isFile(body: unknown): body is FilePart {
  return typeof body === 'object' && body !== null && !Buffer.isBuffer(body);
}

/** The text as one single-quoted shell word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlLine(method: string, url: string, headers: Record<string, string>, body: string | Buffer | FilePart | undefined, insecure: boolean): string {
  const parts = ['curl -sS -i'];
  if (insecure) parts.push('-k');
  parts.push('-X', method, shellQuote(url));
  for (const [name, value] of Object.entries(redact(headers))) {
    if (isFile(body) && name === 'content-type') continue; // curl -F writes its own boundary
    parts.push('-H', value.includes('$DHI_JWT') ? `"${name}: ${value}"` : shellQuote(`${name}: ${value}`));
  }
  if (isFile(body)) {
    parts.push('-F', shellQuote(`${body.field}=@${body.fileName};type=${body.contentType}`));
  } else if (body !== undefined) {
    const printable = typeof body === 'string' || !body.includes(0);
    if (printable && body.length <= 65536) parts.push('--data-binary', shellQuote(body.toString()));
    else parts.push('--data-binary', `@body.bin  # ${body.length} bytes`);
  }
  return parts.join(' ');
}
