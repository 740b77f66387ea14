// The simulator's HTTP: the lean status client (h1-client.ts) over real sockets, against servers
// that frame their answers every way HTTP/1.1 allows, and the error classes of what goes wrong.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createH1Client } from '../h1-client.js';
import { classifyError } from '../http.js';

async function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port where nothing listens: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const client = (url: string, timeoutMs = 5000, connections = 2) => createH1Client({ url, connections, timeoutMs, insecure: false });

describe('the lean status client', () => {
  let server: ReturnType<typeof createHttpServer>;
  let url: string;
  const bodies: string[] = [];

  beforeAll(async () => {
    // Answers by path: each way of ending a body, and the request body it got echoed into `bodies`.
    server = createHttpServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        bodies.push(`${request.method} ${request.url} ${request.headers['content-type'] ?? '-'} ${body}`);
        if (request.url === '/chunked') {
          response.writeHead(201);
          response.write('{"part":1}');
          response.end('{"part":2}');
        } else if (request.url === '/length') response.writeHead(202, { 'content-length': '5' }).end('hello');
        else if (request.url === '/close') response.writeHead(503, { connection: 'close' }).end('bye');
        else response.writeHead(204).end();
      });
    });
    url = await listen(server);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads the status of bodies framed by length, by chunks, by close, and of none, on kept-alive connections', async () => {
    const c = client(url, 5000, 1);
    expect(await c.status('POST', '/length', '{"a":1}')).toBe(202);
    expect(await c.status('POST', '/chunked', '{"b":"ü"}')).toBe(201);
    expect(await c.status('GET', '/empty')).toBe(204);
    expect(await c.status('POST', '/close', '{}')).toBe(503);
    // Many at once over one connection: each waits its turn, none is lost.
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => c.status('POST', i % 2 ? '/chunked' : '/length', `{"i":${i}}`)));
    expect(statuses).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? 201 : 202)));
    await c.close();
    expect(bodies.slice(0, 4)).toEqual(['POST /length application/json {"a":1}', 'POST /chunked application/json {"b":"ü"}', 'GET /empty - ', 'POST /close application/json {}']);
    expect(bodies).toHaveLength(24);
  });

  it('names refused connections "connect"', async () => {
    const c = client(`http://127.0.0.1:${await closedPort()}`);
    const error = await c.status('GET', '/').catch((e: unknown) => e);
    expect(classifyError(error)).toBe('connect');
  });

  it('names a connection the server drops mid-request "reset"', async () => {
    const dropper = createServer((socket) => socket.on('data', () => socket.resetAndDestroy()));
    const c = client(await listen(dropper));
    const error = await c.status('POST', '/api/v1/t/telemetry', '{}').catch((e: unknown) => e);
    c.destroy();
    await new Promise((resolve) => dropper.close(resolve));
    expect(classifyError(error)).toBe('reset');
  });

  it('names a server that never answers "timeout"', async () => {
    const silent = createServer(() => {});
    const c = client(await listen(silent), 200);
    const error = await c.status('GET', '/').catch((e: unknown) => e);
    c.destroy();
    silent.close();
    expect(classifyError(error)).toBe('timeout');
  });

  it('looks through causes and falls back to "other"', () => {
    expect(classifyError({ cause: { code: 'ECONNREFUSED' } })).toBe('connect');
    expect(classifyError(new Error('strange'))).toBe('other');
  });
});
