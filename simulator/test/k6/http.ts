// Stand-in for k6/http with k6's synchronous semantics: a request blocks the VU until its answer
// (a worker thread makes it; this thread waits on Atomics). It logs every request and returns a
// response with the fields the exported script reads: status, body, error_code, timings, json().
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { log } from './log.js';

// Plain JavaScript without the loader hooks of this process (tsx, register.ts): a worker whose
// modules went through them would wait for this thread, which waits for it.
const worker = new Worker(new URL('./http-worker.mjs', import.meta.url), { execArgv: [] });
worker.unref();

interface Params {
  headers?: Record<string, string>;
  timeout?: number | string;
  tags?: Record<string, string>;
}

/** k6 accepts a number of milliseconds or a duration such as '60s'. */
function timeoutMs(value: Params['timeout']): number {
  if (value === undefined) return 60_000;
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value);
  if (!match) throw new Error(`k6 stand-in: unsupported timeout ${value}`);
  return Number(match[1]) * { ms: 1, s: 1000, m: 60_000 }[match[2] as 'ms' | 's' | 'm'];
}

/** k6's json(selector) with a dotted path (GJSON's simplest form), or the whole document. */
function select(document: unknown, selector?: string): unknown {
  if (!selector) return document;
  return selector.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], document);
}

function call(method: string, url: string, body: string | null | undefined, params: Params = {}) {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const limit = timeoutMs(params.timeout);
  worker.postMessage({ method, url, body, headers: params.headers ?? {}, timeoutMs: limit, port: port2, flag }, [port2]);
  Atomics.wait(flag, 0, 0);
  const answer = receiveMessageOnPort(port1)!.message as { status: number; body: string | null; error_code: number; error: string; duration: number };
  port1.close();
  log.requests.push({ method, url, status: answer.status, error_code: answer.error_code, timeoutMs: limit, tags: params.tags ?? {} });
  return {
    ...answer,
    timings: { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting: answer.duration, receiving: 0, duration: answer.duration },
    json: (selector?: string) => select(JSON.parse(answer.body ?? 'null'), selector),
  };
}

export default {
  get: (url: string, params?: Params) => call('GET', url, undefined, params),
  post: (url: string, body: string | null, params?: Params) => call('POST', url, body, params),
  del: (url: string, body: string | null, params?: Params) => call('DELETE', url, body, params),
};
