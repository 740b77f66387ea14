import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRaw, statusOf } from '../../conformance/raw-socket.js';
import { buildApp } from '../app.js';
import { createSqliteStore } from '../store/sqlite.js';
import { call, createDevice, startTestServer, stopTestServer, storedRows, tempDir, type TestServer } from './helpers.js';
import { client, loginAs, upload, type Api } from './control-helpers.js';
import { join } from 'node:path';

let server: TestServer;
let api: Api;
let jwt: string;
beforeAll(async () => {
  server = await startTestServer();
  jwt = await loginAs(server);
  api = client(server, jwt);
});
afterAll(async () => {
  await stopTestServer(server);
});

const isErrorBody = (status: number) => expect.objectContaining({ status, errorCode: expect.any(Number), message: expect.any(String), timestamp: expect.any(Number) });

describe('a device deleted while its upload is in flight', () => {
  it('answers 401 (its token is gone), not 500, and stores nothing', async () => {
    const device = await createDevice(server.ctx);
    const body = '{"temperature":21}';
    const upload = await connectRaw(server.httpUrl);
    await upload.write(`POST /api/v1/${device.token}/telemetry HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n{`);
    expect((await api('DELETE', `/api/device/${device.id}`)).status).toBe(200);
    await upload.write(`${body.slice(1)}`);
    while (!upload.received().includes('\r\n\r\n')) await new Promise((resolve) => upload.socket.once('data', resolve));
    expect(statusOf(upload.received())).toBe(401);
    upload.destroy();
    expect(await storedRows(server.ctx.store, server.dbPath, device.id)).toBe(0);
  });

  it('answers 404, not 500, when the OTA package is deleted during its upload', async () => {
    const created = await api('POST', '/api/otaPackage', { title: 'gone', version: '1', type: 'FIRMWARE', deviceProfileId: { entityType: 'DEVICE_PROFILE', id: server.ctx.store.defaultProfile().id } });
    const id = (created.json() as { id: { id: string } }).id.id;
    const head = '--XB\r\nContent-Disposition: form-data; name="file"; filename="fw.bin"\r\nContent-Type: application/octet-stream\r\n\r\n';
    const tail = 'firmware\r\n--XB--\r\n';
    const upload = await connectRaw(server.httpUrl);
    await upload.write(`POST /api/otaPackage/${id}?checksumAlgorithm=SHA256 HTTP/1.1\r\nHost: t\r\nX-Authorization: Bearer ${jwt}\r\n` +
      `Content-Type: multipart/form-data; boundary=XB\r\nContent-Length: ${head.length + tail.length}\r\n\r\n${head}`);
    expect((await api('DELETE', `/api/otaPackage/${id}`)).status).toBe(200);
    await upload.write(tail);
    while (!upload.received().includes('\r\n\r\n')) await new Promise((resolve) => upload.socket.once('data', resolve));
    expect(statusOf(upload.received())).toBe(404);
    upload.destroy();
  });
});

describe('OTA file names outside Latin-1', () => {
  it('serves the download with RFC 6266 filename* (UTF-8) and an ASCII stand-in', async () => {
    const created = await api('POST', '/api/otaPackage', { title: 'прошивка', version: '1', type: 'FIRMWARE', deviceProfileId: { entityType: 'DEVICE_PROFILE', id: server.ctx.store.defaultProfile().id } });
    const id = (created.json() as { id: { id: string } }).id.id;
    const up = await upload(server, jwt, `/api/otaPackage/${id}?checksumAlgorithm=SHA256`, Buffer.from('firmware'), 'прошивка 固件.bin');
    expect(up.status).toBe(200);
    const res = await call(server.httpUrl, 'GET', `/api/otaPackage/${id}/download`, undefined, { 'x-authorization': `Bearer ${jwt}` });
    expect(res.status).toBe(200);
    expect(res.text).toBe('firmware');
    const disposition = String(res.headers['content-disposition']);
    const encoded = /filename\*=UTF-8''(\S+)/.exec(disposition)?.[1];
    expect(decodeURIComponent(encoded ?? '')).toBe('прошивка_固件.bin');
    expect(disposition).toMatch(/^attachment;filename=[\x21-\x7e]+;filename\*=/);
  });
});

describe('page numbers', () => {
  it.each(['1e308', '1.5', '-1', '99999999999999999999', 'abc', '2147483648'])('answers 400 with the error body for page=%s', async (page) => {
    const res = await api('GET', `/api/tenant/devices?pageSize=10&page=${page}`);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual(isErrorBody(400));
  });
});

describe('router errors', () => {
  it('answers bad percent-encoding with 400 and the error body', async () => {
    const res = await call(server.httpUrl, 'GET', '/api/v1/%E0%A4%A/attributes');
    expect(res.status).toBe(400);
    expect(res.json()).toEqual(isErrorBody(400));
  });

  it('answers a path parameter longer than the contract allows with 414 and the error body', async () => {
    const res = await call(server.httpUrl, 'GET', `/api/v1/${'t'.repeat(300)}/attributes`);
    expect(res.status).toBe(414);
    expect(res.json()).toEqual(isErrorBody(414));
  });

  it('takes an access token as long as the contract allows (256) as a token: 401 when unknown', async () => {
    expect((await call(server.httpUrl, 'GET', `/api/v1/${'t'.repeat(256)}/attributes`)).status).toBe(401);
  });
});

describe('request logs', () => {
  it('log each request at debug with access tokens redacted by parameter name, whatever the path', async () => {
    let logged = '';
    const stream = new Writable({ write(chunk, _encoding, done) { logged += chunk; done(); } });
    const app = await buildApp({ logLevel: 'debug' }, { store: createSqliteStore(join(tempDir(), 'dhi.db')), logStream: stream });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const device = await createDevice(app.dhi);
    const admin = (await call(base, 'POST', '/api/auth/login', { username: 'tenant@thingsboard.org', password: 'tenant' })).json() as { token: string };
    await call(base, 'POST', `/api/v1/${device.token}/telemetry`, { a: 1 });
    await call(base, 'POST', `//api/v1/${device.token}/telemetry`, { a: 1 });
    await call(base, 'GET', `/api/v1/${device.token}/unknown/path?accessToken=${device.token}`);
    await call(base, 'POST', '/api/device?accessToken=SECRETTOKEN42', { name: 'logged', type: 'default' }, { 'x-authorization': `Bearer ${admin.token}` });
    await app.close();
    await app.dhi.store.close();
    expect(logged).toContain('"url":"/api/v1/***/telemetry"');
    expect(logged).toContain('"url":"/api/device?accessToken=***"');
    expect(logged).toContain('request completed');
    expect(logged).not.toContain(device.token);
    expect(logged).not.toContain('SECRETTOKEN42');
    expect(logged).not.toContain(admin.token);
  });

  it('log nothing per request at the default level', async () => {
    let logged = '';
    const stream = new Writable({ write(chunk, _encoding, done) { logged += chunk; done(); } });
    const app = await buildApp({}, { store: createSqliteStore(':memory:'), logStream: stream });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    expect((await call(base, 'GET', '/api/v1/nobody/attributes')).status).toBe(401);
    await app.close();
    await app.dhi.store.close();
    expect(logged).toBe('');
  });
});
