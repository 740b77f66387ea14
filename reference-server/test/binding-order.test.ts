import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, stopTestServer, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => stopTestServer(server));

const UNKNOWN = 'noSuchToken0000000000';
const send = (method: 'GET' | 'POST', path: string, body?: string) =>
  call(server.httpUrl, method, `/api/v1/${UNKNOWN}/${path}`, body, body === undefined ? {} : { 'content-type': 'application/json' });

describe('an unknown token with a request that does not bind: 400 first, as ThingsBoard binds before it checks the token', () => {
  it.each([
    ['POST', 'telemetry', undefined],
    ['POST', 'telemetry', ''],
    ['POST', 'attributes', undefined],
    ['POST', 'rpc', undefined],
    ['POST', 'rpc/7', undefined],
    ['POST', 'rpc/abc', '{"ok":true}'],
    ['POST', 'rpc/1e2', '{"ok":true}'],
    ['GET', 'attributes/updates?timeout=xyz', undefined],
    ['GET', 'rpc?timeout=1e308', undefined],
    ['GET', 'firmware?version=1', undefined],
    ['GET', 'software?title=t&version=1&size=abc', undefined],
  ] as const)('%s %s (body %j) is 400 with the error body', async (method, path, body) => {
    const res = await send(method, path, body);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, errorCode: 31 });
  });

  it.each([
    ['POST', 'telemetry', 'not json at all'],
    ['POST', 'telemetry', '{"t":1}'],
    ['POST', 'attributes', '[1,'],
    ['POST', 'rpc/7', '{"ok":true}'],
    ['POST', 'claim', undefined],
    ['GET', 'attributes/updates?timeout=100', undefined],
    ['GET', 'attributes?clientKeys=a', undefined],
    ['GET', 'firmware?title=t&version=1', undefined],
  ] as const)('%s %s (body %j) binds, so it is 401', async (method, path, body) => {
    expect((await send(method, path, body)).status).toBe(401);
  });
});
