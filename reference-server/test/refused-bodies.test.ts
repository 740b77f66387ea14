import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRaw, statusOf } from '../../conformance/raw-socket.js';
import { call, createDevice, startTestServer, stopTestServer, storedRows, type TestServer } from './helpers.js';
import { loginAs } from './control-helpers.js';

// A refused body (401, 413) is answered and the connection closed: the client cannot push its
// 100 MB through. The kernel's socket buffers take some megabytes before the close shows.
const HUNDRED_MB = 100 * 1024 * 1024;
const CHUNK = Buffer.alloc(256 * 1024, 0x61);
const LIMIT = 1024 * 1024;

let server: TestServer;
let jwt: string;
beforeAll(async () => {
  server = await startTestServer({ payloadLimits: [{ pattern: '/api/v1/**', bytes: LIMIT }, { pattern: '/api/**', bytes: LIMIT }] });
  jwt = await loginAs(server);
});
afterAll(async () => {
  await stopTestServer(server);
});

/** Sends `head` then body bytes until `total` or until the server closes; the status and bytes it took. */
async function push(head: string, total = HUNDRED_MB, preamble = ''): Promise<{ status?: number; sent: number }> {
  const conn = await connectRaw(server.httpUrl);
  await conn.write(head + preamble);
  let sent = preamble.length;
  while (sent < total && (await conn.write(CHUNK.subarray(0, Math.min(CHUNK.length, total - sent))))) sent += CHUNK.length;
  await conn.closed;
  return { status: statusOf(conn.received()), sent };
}

const post = (path: string, headers: string) => `POST ${path} HTTP/1.1\r\nHost: t\r\n${headers}\r\n`;

describe('refused bodies', () => {
  it('answers 401 for a bad device token and stops reading the body', async () => {
    const result = await push(post('/api/v1/not-a-token/telemetry', `Content-Type: application/json\r\nContent-Length: ${HUNDRED_MB}\r\n`));
    expect(result.status).toBe(401);
    expect(result.sent).toBeLessThan(HUNDRED_MB / 2);
  });

  it('answers 401 for a control request without a JWT and stops reading the body', async () => {
    const result = await push(post('/api/device', `Content-Type: application/json\r\nContent-Length: ${HUNDRED_MB}\r\n`));
    expect(result.status).toBe(401);
    expect(result.sent).toBeLessThan(HUNDRED_MB / 2);
  });

  it('answers 413 for a declared length over the limit and stops reading the body', async () => {
    const device = await createDevice(server.ctx);
    const result = await push(post(`/api/v1/${device.token}/telemetry`, `Content-Type: application/json\r\nContent-Length: ${HUNDRED_MB}\r\n`));
    expect(result.status).toBe(413);
    expect(result.sent).toBeLessThan(HUNDRED_MB / 2);
    expect(await storedRows(server.ctx.store, server.dbPath, device.id)).toBe(0);
  });

  it('answers 413 for a chunked body that grows over the limit and stops reading it', async () => {
    const device = await createDevice(server.ctx);
    const conn = await connectRaw(server.httpUrl);
    await conn.write(post(`/api/v1/${device.token}/telemetry`, 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n'));
    let sent = 0;
    const frame = Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')]);
    while (sent < HUNDRED_MB && (await conn.write(frame))) sent += CHUNK.length;
    await conn.closed;
    expect(statusOf(conn.received())).toBe(413);
    expect(sent).toBeLessThan(HUNDRED_MB / 2);
  });

  it('answers 413 for a multipart OTA upload over its limit before the whole body and stops reading it', async () => {
    const created = await call(server.httpUrl, 'POST', '/api/otaPackage',
      { title: 'big', version: '1', type: 'FIRMWARE', deviceProfileId: { entityType: 'DEVICE_PROFILE', id: server.ctx.store.defaultProfile().id } },
      { 'x-authorization': `Bearer ${jwt}` });
    const id = (created.json() as { id: { id: string } }).id.id;
    const preamble = '--XB\r\nContent-Disposition: form-data; name="file"; filename="fw.bin"\r\nContent-Type: application/octet-stream\r\n\r\n';
    const result = await push(post(`/api/otaPackage/${id}?checksumAlgorithm=SHA256`,
      `X-Authorization: Bearer ${jwt}\r\nContent-Type: multipart/form-data; boundary=XB\r\nContent-Length: ${HUNDRED_MB}\r\n`), HUNDRED_MB, preamble);
    expect(result.status).toBe(413);
    expect(result.sent).toBeLessThan(HUNDRED_MB / 2);
    expect(server.ctx.store.otaById(id)?.dataSize).toBeNull();
  });
});
