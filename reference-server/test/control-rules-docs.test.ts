import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { startAdminServer, newDeviceVia, type Api } from './control-helpers.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

describe('/api/dhi/rules', () => {
  it('sets static and echo replies that device-side RPC gets, lists them with the built-ins, and deletes them', async () => {
    const device = await newDeviceVia(api);
    const rpc = (method: string, params: unknown) => call(server.httpUrl, 'POST', `/api/v1/${device.token}/rpc`, { method, params });

    const set = await api('PUT', '/api/dhi/rules/getConfig', { type: 'static', reply: { interval: 30 } });
    expect(set.json()).toEqual({ method: 'getConfig', type: 'static', reply: { interval: 30 } });
    expect((await rpc('getConfig', {})).json()).toEqual({ interval: 30 });
    expect((await api('PUT', '/api/dhi/rules/mirror', { type: 'echo' })).json()).toEqual({ method: 'mirror', type: 'echo' });
    expect((await rpc('mirror', [1, 'two'])).json()).toEqual([1, 'two']);

    expect((await api('GET', '/api/dhi/rules')).json()).toEqual([
      { method: 'echo', type: 'builtin' },
      { method: 'getConfig', type: 'static', reply: { interval: 30 } },
      { method: 'getCurrentTime', type: 'builtin' },
      { method: 'mirror', type: 'echo' },
    ]);
    expect((await api('DELETE', '/api/dhi/rules/getConfig')).status).toBe(200);
    expect((await api('DELETE', '/api/dhi/rules/getConfig')).status).toBe(404);
    expect(server.ctx.store.rule('getConfig')).toBeUndefined();
  });

  it('refuses a rule of an unknown type or a static rule without a reply with 400', async () => {
    expect((await api('PUT', '/api/dhi/rules/x', { type: 'script', reply: 1 })).status).toBe(400);
    expect((await api('PUT', '/api/dhi/rules/x', { type: 'static' })).status).toBe(400);
  });
});

describe('Swagger UI', () => {
  it('renders the contract at /docs, with this server as the server to try it against', async () => {
    const page = await call(server.httpUrl, 'GET', '/docs/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui');
    const document = (await call(server.httpUrl, 'GET', '/docs/json')).json() as { paths: Record<string, unknown>; servers: { url: string }[] };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/auth/login', '/api/plugins/rpc/twoway/{deviceId}', '/api/v1/{accessToken}/telemetry']));
    expect(document.servers[0].url).toBe(server.httpUrl);
  });
});
