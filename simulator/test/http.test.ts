import { createServer, type AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { classifyError, createTarget, sendForStatus } from '../http.js';

/** A port where nothing listens: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('error classes', () => {
  it('names refused connections "connect"', async () => {
    const pool = new Pool(`http://127.0.0.1:${await closedPort()}`, { connections: 1 });
    const error = await sendForStatus(pool, 'GET', '/').catch((e: unknown) => e);
    await pool.close();
    expect(classifyError(error)).toBe('connect');
  });

  it('names a connection the server drops mid-request "reset"', async () => {
    const server = createServer((socket) => socket.on('data', () => socket.resetAndDestroy()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = createTarget({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: 1, pollConnections: 0, localAddresses: [], pollTimeoutMs: 1000, requestTimeoutMs: 5000, insecure: false });
    const error = await sendForStatus(target.shortPool(0), 'POST', '/api/v1/t/telemetry', '{}').catch((e: unknown) => e);
    await target.destroy();
    await new Promise((resolve) => server.close(resolve));
    expect(classifyError(error)).toBe('reset');
  });

  it('names a server that never answers "timeout"', async () => {
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = createTarget({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: 1, pollConnections: 0, localAddresses: [], pollTimeoutMs: 1000, requestTimeoutMs: 200, insecure: false });
    const error = await sendForStatus(target.shortPool(0), 'GET', '/').catch((e: unknown) => e);
    await target.destroy();
    server.close();
    expect(classifyError(error)).toBe('timeout');
  });

  it('looks through causes and falls back to "other"', () => {
    expect(classifyError({ cause: { code: 'ECONNREFUSED' } })).toBe('connect');
    expect(classifyError(new Error('strange'))).toBe('other');
  });
});
