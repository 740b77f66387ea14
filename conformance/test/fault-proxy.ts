// A real HTTP proxy between the suite and a reference server that applies one fault at a time.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

export interface ProxyRequest {
  method: string;
  /** Path with query string. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface FaultContext {
  /** Sends a request to the real server (e.g. to fetch the whole firmware for a shifted chunk). */
  upstream(request: ProxyRequest): Promise<ProxyResponse>;
}

export interface Fault {
  name: string;
  /** Case ids that must fail (at MUST level, or SHOULD with `strict`) with this fault. */
  caught: string[];
  /** The cases that catch it are SHOULD: run with --strict, where they fail the run. */
  strict?: boolean;
  /** Rewrite the request, or answer it without the server. */
  request?(req: ProxyRequest, ctx: FaultContext): ProxyRequest | ProxyResponse | Promise<ProxyRequest | ProxyResponse>;
  /** Rewrite the server's answer. */
  response?(req: ProxyRequest, res: ProxyResponse, ctx: FaultContext): ProxyResponse | Promise<ProxyResponse>;
  /** Sees every request the proxy holds open, to answer it from elsewhere (cross-device faults). */
  hold?(req: ProxyRequest, answer: (res: ProxyResponse) => void): void;
}

export interface FaultProxy {
  url: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade']);

function cleanHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined && !HOP_BY_HOP.has(k.toLowerCase())) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFaultProxy(upstreamUrl: string, fault?: Fault): Promise<FaultProxy> {
  const pool = new Pool(upstreamUrl, { connections: 64, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const ctx: FaultContext = {
    async upstream(request) {
      const res = await pool.request({
        method: request.method as 'GET',
        path: request.url,
        headers: request.headers,
        body: request.body.length || request.method !== 'GET' ? request.body : undefined,
      });
      return { status: res.statusCode, headers: cleanHeaders(res.headers), body: Buffer.from(await res.body.arrayBuffer()) };
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let request: ProxyRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: cleanHeaders(req.headers), body: await readBody(req) };
    let answered = false;
    const answer = (response: ProxyResponse) => {
      if (answered || res.writableEnded) return;
      answered = true;
      res.writeHead(response.status, { ...response.headers, 'content-length': String(response.body.length) });
      res.end(response.body);
    };
    fault?.hold?.(request, answer);
    const rewritten = fault?.request ? await fault.request(request, ctx) : request;
    if ('status' in rewritten) return answer(rewritten);
    request = rewritten;
    const response = await ctx.upstream(request);
    answer(fault?.response ? await fault.response(request, response, ctx) : response);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`fault proxy: ${error.message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.destroy(); // requests still open upstream (long polls) end now, not at their timeout
    },
  };
}

/** One fault that applies those of `on` at the time of each request, in order: switched between runs. */
export function switchableFaults(on: ReadonlySet<Fault>): Fault {
  return {
    name: 'switchable',
    caught: [],
    async request(req, ctx) {
      let current: ProxyRequest | ProxyResponse = req;
      for (const f of on) if (f.request && !('status' in current)) current = await f.request(current, ctx);
      return current;
    },
    async response(req, res, ctx) {
      let current = res;
      for (const f of on) if (f.response) current = await f.response(req, current, ctx);
      return current;
    },
  };
}
