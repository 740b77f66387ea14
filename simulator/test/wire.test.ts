// The devices' HTTP client (wire.ts) over real sockets: each device on connections of its own,
// another connection when its own are busy, a backlog beyond --max-connections-per-device that is
// reported apart, deadlines, every way HTTP/1.1 frames a body, and the error classes of what goes wrong.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, startTestServer, stopTestServer } from '../../reference-server/test/helpers.js';
import { closedPort } from '../../test/ports.js';
import { classifyError } from '../http.js';
import { monoNow } from '../clock.js';
import { requestText } from '../request-text.js';
import { exchange, type Exchange } from '../exchange.js';
import { createWire, type Link, type Wire } from '../wire.js';

async function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Send one request over `link` and wait for its end. */
function send(link: Link, method: string, path: string, body?: string, limitMs = 5000): Promise<Exchange> {
  return new Promise((resolve) => link.send(exchange('telemetry', requestText(method, path, 'test', body), true, monoNow(), limitMs, resolve, null)));
}

describe('the wire', () => {
  let server: ReturnType<typeof createHttpServer>;
  let url: string;
  const bodies: string[] = [];
  /** Client ports seen per request path prefix: which connection carried what. */
  const ports: number[] = [];
  /** Requests held until released (path /hold). */
  const held: ServerResponse[] = [];
  let wire: Wire | undefined;

  beforeAll(async () => {
    server = createHttpServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        bodies.push(`${request.method} ${request.url} ${request.headers['content-type'] ?? '-'} ${body}`);
        ports.push(request.socket.remotePort as number);
        if (request.url === '/chunked') {
          response.writeHead(201);
          response.write('{"part":1}');
          response.end('{"part":"ü"}');
        } else if (request.url === '/length') response.writeHead(202, { 'content-length': '5' }).end('hello');
        else if (request.url === '/close') response.writeHead(503, { connection: 'close' }).end('bye');
        else if (request.url === '/hold') held.push(response);
        else response.writeHead(204).end();
      });
    });
    url = await listen(server);
  });
  afterEach(() => {
    wire?.destroy('unfinished');
    for (const response of held.splice(0)) response.destroy();
    bodies.length = 0;
    ports.length = 0;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const make = (maxConnectionsPerLink = 4, maxConnections = 100) => (wire = createWire({ url, insecure: false, maxConnectionsPerLink, maxConnections }));

  it('reads the status and body of answers framed by length, by chunks, by close, and of none, on kept-alive connections', async () => {
    const link = make(1).link();
    const before = monoNow();
    const first = await send(link, 'POST', '/length', '{"a":1}');
    expect(first).toMatchObject({ status: 202, body: 'hello', failure: null });
    // Its end is when its answer was read: after it was sent, by the time it was handed over.
    expect(first.endedAt).toBeGreaterThanOrEqual(first.sentAt);
    expect(first.sentAt).toBeGreaterThanOrEqual(before);
    expect(first.endedAt).toBeLessThanOrEqual(monoNow());
    const chunked = await send(link, 'POST', '/chunked', '{"b":"ü"}');
    expect(chunked).toMatchObject({ status: 201, failure: null });
    expect(Buffer.from(chunked.body, 'latin1').toString()).toBe('{"part":1}{"part":"ü"}');
    expect(await send(link, 'GET', '/empty')).toMatchObject({ status: 204, body: '' });
    expect(await send(link, 'POST', '/close', '{}')).toMatchObject({ status: 503, body: 'bye' });
    expect(bodies).toEqual(['POST /length application/json {"a":1}', 'POST /chunked application/json {"b":"ü"}', 'GET /empty - ', 'POST /close application/json {}']);
    // One connection until the server closed it; the next request opened another.
    expect(new Set(ports.slice(0, 4)).size).toBe(1);
    await send(link, 'GET', '/empty');
    expect(ports[4]).not.toBe(ports[3]);
  });

  it("keeps each device on connections of its own: two devices never share one, even one after the other", async () => {
    const w = make();
    const a = w.link();
    const b = w.link();
    for (let i = 0; i < 3; i++) {
      await send(a, 'GET', '/empty');
      await send(b, 'GET', '/empty');
    }
    const [pa, pb] = [ports.filter((_, i) => i % 2 === 0), ports.filter((_, i) => i % 2 === 1)];
    expect(new Set(pa).size).toBe(1);
    expect(new Set(pb).size).toBe(1);
    expect(pa[0]).not.toBe(pb[0]);
    expect(w.open).toBe(2);
  });

  it("opens a connection ahead of a device's first request, idle until that request goes over it, and says when it is open or refused", async () => {
    const w = make();
    const link = w.link();
    await new Promise<void>((resolve) => link.connect(resolve));
    expect([w.open, w.opened, link.open, bodies.length]).toEqual([1, 1, 1, 0]);
    // One is enough: a device that has a connection opens no other ahead.
    await new Promise<void>((resolve) => link.connect(resolve));
    expect(w.opened).toBe(1);
    for (let i = 0; i < 2; i++) expect(await send(link, 'GET', '/empty')).toMatchObject({ status: 204, failure: null });
    expect([w.opened, new Set(ports).size]).toEqual([1, 1]);
    // No budget left: nothing opened, settled at once.
    const full = createWire({ url, insecure: false, maxConnectionsPerLink: 1, maxConnections: 0 });
    let settled = false;
    full.link().connect(() => (settled = true));
    expect([settled, full.opened]).toEqual([true, 0]);
    // Refused: settled, and the connection is gone.
    const refused = createWire({ url: `http://127.0.0.1:${await closedPort()}`, insecure: false, maxConnectionsPerLink: 1, maxConnections: 10 });
    await new Promise<void>((resolve) => refused.link().connect(resolve));
    expect([refused.opened, refused.open]).toEqual([1, 0]);
    refused.destroy('unfinished');
  });

  it('opens another connection for a request that finds its device busy, and beyond the cap queues it, reported apart', async () => {
    const w = make(2);
    const link = w.link();
    const first = send(link, 'GET', '/hold');
    const second = send(link, 'GET', '/hold');
    const third = send(link, 'GET', '/length');
    await until(() => held.length === 2);
    expect(link.open).toBe(2);
    expect(bodies).toHaveLength(2); // the third waits in the device's backlog, not on the wire
    held[0].writeHead(200, { 'content-length': '0' }).end();
    const done = await third;
    expect(done.status).toBe(202);
    expect(done.queuedAt).toBeGreaterThan(0);
    expect(done.sentAt).toBeGreaterThanOrEqual(done.queuedAt);
    expect((await first).queuedAt).toBe(0);
    held[1].writeHead(200, { 'content-length': '0' }).end();
    expect((await second).status).toBe(200);
    expect(w.peakOpen).toBe(2);
  });

  it('queues at the process budget too, and gives a freed descriptor to the device that waited', async () => {
    const w = make(4, 1);
    const a = w.link();
    const b = w.link();
    const held1 = send(a, 'GET', '/hold');
    const waiting = send(b, 'GET', '/length');
    await until(() => held.length === 1);
    expect(w.open).toBe(1);
    held[0].writeHead(200, { connection: 'close', 'content-length': '0' }).end();
    expect((await held1).status).toBe(200);
    const done = await waiting;
    expect(done).toMatchObject({ status: 202, failure: null });
    expect(done.queuedAt).toBeGreaterThan(0);
  });

  it('ends a request past its limit as a timeout, and one that never left its backlog as dropped', async () => {
    const w = make(1);
    const link = w.link();
    const hung = send(link, 'GET', '/hold', undefined, 150);
    const behind = send(link, 'GET', '/length', undefined, 150);
    const [a, b] = await Promise.all([hung, behind]);
    expect(a.failure).toBe('timeout');
    expect(a.sentAt).toBeGreaterThan(0);
    expect(b).toMatchObject({ failure: 'dropped', sentAt: 0 });
    // Each ended past its limit, and says when.
    for (const ex of [a, b]) expect(ex.endedAt - ex.intendedAt).toBeGreaterThan(150);
    expect(link.open).toBe(0);
  });

  it('ends what is still open when destroyed: timeout past its limit, the given class before it', async () => {
    const w = make(4);
    const link = w.link();
    const young = send(link, 'GET', '/hold', undefined, 60_000);
    const old = new Promise<Exchange>((resolve) => link.send(exchange('telemetry', requestText('GET', '/hold', 'test'), false, monoNow() - 5000, 1000, resolve, null)));
    await until(() => held.length === 2);
    w.destroy('unfinished');
    expect((await young).failure).toBe('unfinished');
    expect((await old).failure).toBe('timeout');
  });

  it('names refused connections "connect" and a connection dropped mid-request "reset"', async () => {
    wire = createWire({ url: `http://127.0.0.1:${await closedPort()}`, insecure: false, maxConnectionsPerLink: 1, maxConnections: 10 });
    expect((await send(wire.link(), 'GET', '/')).failure).toBe('connect');
    const dropper = createServer((socket: Socket) => socket.on('data', () => socket.resetAndDestroy()));
    const w = createWire({ url: await listen(dropper), insecure: false, maxConnectionsPerLink: 1, maxConnections: 10 });
    expect((await send(w.link(), 'POST', '/api/v1/t/telemetry', '{}')).failure).toBe('reset');
    w.destroy('unfinished');
    await new Promise((resolve) => dropper.close(resolve));
  });

  it('speaks TLS too (a self-signed server, without certificate checks), keeping the connection', async () => {
    const tls = await startTestServer({ httpsPort: 0 });
    try {
      const device = await createDevice(tls.ctx);
      const w = createWire({ url: tls.httpsUrl!, insecure: true, maxConnectionsPerLink: 2, maxConnections: 10 });
      const link = w.link();
      for (let i = 0; i < 3; i++) expect(await send(link, 'POST', `/api/v1/${device.token}/telemetry`, `{"n":${i}}`)).toMatchObject({ status: 200, failure: null });
      expect(JSON.parse((await send(link, 'GET', `/api/v1/${device.token}/attributes`)).body)).toEqual({});
      expect(w.opened).toBe(1);
      w.destroy('unfinished');
    } finally {
      await stopTestServer(tls);
    }
  });

  it('classifies errors by code, through causes, and falls back to "other"', () => {
    expect(classifyError({ code: 'UND_ERR_HEADERS_TIMEOUT' })).toBe('timeout');
    expect(classifyError({ cause: { code: 'ECONNREFUSED' } })).toBe('connect');
    expect(classifyError(new Error('strange'))).toBe('other');
  });
});

/** Wait (a few ms at a time) until `condition` holds: for server-side facts a request cannot report. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}
