import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { connectRaw, statusOf } from '../../conformance/raw-socket.js';
import { createDevice, startTestServer, stopTestServer, storedTimestamps } from './helpers.js';

const WRITERS = 16;

describe('closing while keep-alive clients keep writing', () => {
  it.each(['http', 'https'] as const)('answers every request sent over %s 200 (stored) or 503, never a reset; only new connections are refused', async (scheme) => {
    const server = await startTestServer({ httpsPort: 0 });
    const device = await createDevice(server.ctx);
    const base = scheme === 'http' ? server.httpUrl : server.httpsUrl!;
    const pool = new Pool(base, { connections: WRITERS, pipelining: 1, connect: { rejectUnauthorized: false } });
    const outcomes: Record<string, number> = {};
    const acknowledged: number[] = [];
    let answered = 0;
    let nextTs = 1;
    const writer = async () => {
      for (;;) {
        // A timestamp of its own per request: rows in the same millisecond would share one.
        const ts = nextTs++;
        try {
          const res = await pool.request({ method: 'POST', path: `/api/v1/${device.token}/telemetry`, headers: { 'content-type': 'application/json' }, body: `{"ts":${ts},"values":{"seq":${ts}}}` });
          await res.body.dump();
          answered++;
          if (res.statusCode === 200) acknowledged.push(ts);
          outcomes[res.statusCode] = (outcomes[res.statusCode] ?? 0) + 1;
        } catch (error) {
          const { code, cause } = error as { code?: string; cause?: { code?: string } };
          const name = cause?.code ?? code ?? 'error';
          outcomes[name] = (outcomes[name] ?? 0) + 1;
          return;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    // Close once every keep-alive connection is busy writing (observed, not timed).
    while (answered < WRITERS * 4) await new Promise((resolve) => setImmediate(resolve));
    await stopTestServer(server, false);
    await Promise.all(writers);
    await pool.close();
    const stored = new Set(storedTimestamps(server.dbPath, device.id));
    expect(Object.keys(outcomes).filter((outcome) => !['200', '503', 'ECONNREFUSED'].includes(outcome)), JSON.stringify(outcomes)).toEqual([]);
    expect(acknowledged.filter((ts) => !stored.has(ts))).toEqual([]);
  });
});

describe('the close deadline', () => {
  it.each(['http', 'https'] as const)('answers a request still in flight at the deadline 503 with the error body, then closes (%s)', async (scheme) => {
    const server = await startTestServer({ httpsPort: 0 });
    const device = await createDevice(server.ctx);
    const upload = await connectRaw(scheme === 'http' ? server.httpUrl : server.httpsUrl!);
    // 100 Continue: the server has parsed the request and handed it on; the body never completes.
    await upload.write(`POST /api/v1/${device.token}/telemetry HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`);
    await new Promise<void>((resolve) => {
      const seen = () => upload.received().includes('100 Continue') && (upload.socket.off('data', seen), resolve());
      upload.socket.on('data', seen);
      seen();
    });
    await upload.write('{"a":');
    await stopTestServer(server);
    await upload.closed;
    const answer = upload.received().slice(upload.received().indexOf('\r\n\r\n') + 4);
    expect(statusOf(answer)).toBe(503);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 503, errorCode: 2, message: 'Server is shutting down' });
  }, 15_000);
});
