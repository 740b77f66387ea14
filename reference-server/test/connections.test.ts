import { afterEach, describe, expect, it } from 'vitest';
import { connectRaw, statusOf, trickle } from '../../conformance/raw-socket.js';
import { call, createDevice, startTestServer, stopTestServer, storedRows, type TestServer } from './helpers.js';

// Small timeouts so that the protections act within a test; each assertion is "it closed" (or "it
// answered"), never how long it took.
const fast = { headerTimeoutMs: 200, bodyTimeoutMs: 400, keepAliveTimeoutMs: 300, tlsHandshakeTimeoutMs: 300 };
const SLOW_HEADERS = 'GET /api/v1/x/attributes HTTP/1.1\r\nHost: t\r\n' + 'X-Slow: 1\r\n'.repeat(200);

const connectionCount = (s: TestServer) =>
  new Promise<number>((resolve, reject) => s.app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))));

let server: TestServer | undefined;
afterEach(async () => {
  if (server) await stopTestServer(server);
  server = undefined;
});

describe.each(['http', 'https'] as const)('slow clients on %s', (scheme) => {
  const base = () => (scheme === 'http' ? server!.httpUrl : server!.httpsUrl!);

  it('closes a client that sends its headers slowly, with 408', async () => {
    server = await startTestServer({ ...fast, httpsPort: 0 });
    const slow = await connectRaw(base());
    await trickle(slow, SLOW_HEADERS, 20, 30_000);
    await slow.closed;
    expect(statusOf(slow.received())).toBe(408);
  });

  it('closes a client that sends its body slowly, with 408', async () => {
    server = await startTestServer({ ...fast, httpsPort: 0 });
    const device = await createDevice(server.ctx);
    const slow = await connectRaw(base());
    await slow.write(`POST /api/v1/${device.token}/telemetry HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
    await trickle(slow, `{"a":"${'x'.repeat(990)}"}`, 20, 30_000);
    await slow.closed;
    expect(statusOf(slow.received())).toBe(408);
    expect(await storedRows(server.ctx.store, server.dbPath, device.id)).toBe(0);
  });

  it('closes a connection that says nothing', async () => {
    server = await startTestServer({ ...fast, httpsPort: 0 });
    const silent = await connectRaw(base());
    await silent.closed;
    expect(silent.isClosed()).toBe(true);
  });

  it('answers a long poll that outlasts the header and body timeouts while it cuts a slow client', async () => {
    server = await startTestServer({ ...fast, httpsPort: 0 });
    const device = await createDevice(server.ctx);
    const poll = await connectRaw(base());
    await poll.write(`GET /api/v1/${device.token}/rpc?timeout=1500 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n`);
    const slow = await connectRaw(base());
    await trickle(slow, SLOW_HEADERS, 20, 30_000);
    await slow.closed;
    await poll.closed;
    expect(statusOf(slow.received())).toBe(408);
    // The poll's own timeout answer (408, empty body), not a cut connection.
    expect(statusOf(poll.received())).toBe(408);
    expect(poll.received()).toMatch(/content-length: 0/i);
  });
});

describe('TLS', () => {
  it('closes a TCP connection to the HTTPS port that never starts its handshake', async () => {
    server = await startTestServer({ ...fast, httpsPort: 0 });
    const idle = await connectRaw(server.httpsUrl!, { handshake: false });
    await idle.closed;
    expect(idle.received()).toBe('');
  });
});

describe('connection cap', () => {
  it('refuses connections beyond --max-connections at accept and serves again once one closes', async () => {
    server = await startTestServer({ maxConnections: 2 });
    const device = await createDevice(server.ctx);
    const held = [await connectRaw(server.httpUrl), await connectRaw(server.httpUrl)];
    const refused = await connectRaw(server.httpUrl);
    await refused.write(`GET /api/v1/${device.token}/attributes HTTP/1.1\r\nHost: t\r\n\r\n`);
    await refused.closed;
    expect(statusOf(refused.received())).toBeUndefined();
    held[0].destroy();
    while ((await connectionCount(server)) >= 2) await new Promise((resolve) => setImmediate(resolve));
    const res = await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes`);
    expect(res.status).toBe(200);
    held[1].destroy();
  });
});
