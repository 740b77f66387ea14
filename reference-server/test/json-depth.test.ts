// Deep JSON: bodies nested up to the limit are served, one level more is a 400 naming the limit,
// never a 500, and no accepted value makes a later read of the device fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { newDeviceVia, openPolls, startAdminServer, type Api, type DeviceRef } from './control-helpers.js';
import { MAX_JSON_DEPTH } from '../json-lossless.js';

let server: TestServer;
let api: Api;
beforeAll(async () => {
  ({ server, api } = await startAdminServer());
});
afterAll(async () => {
  await stopTestServer(server);
});

/** A JSON array nested `depth` levels; with `double`, a 1.0 at the bottom takes the lossless parser. */
const nested = (depth: number, double = false) => '['.repeat(depth) + (double ? '1.0' : '') + ']'.repeat(depth);
/** An object whose member `a` makes the whole body `depth` levels deep. */
const deepObject = (depth: number, double = false, fields = '') => `{${fields}"a":${nested(depth - 1, double)}}`;

const tooDeep = { status: 400, errorCode: 31, message: expect.stringContaining(`maximum allowed (${MAX_JSON_DEPTH})`) };

async function readsStillWork(d: DeviceRef): Promise<void> {
  const reads = [
    await call(server.httpUrl, 'GET', `/api/v1/${d.token}/attributes`),
    await api('GET', `/api/plugins/telemetry/DEVICE/${d.id}/values/attributes/CLIENT_SCOPE`),
    await api('GET', `/api/plugins/telemetry/DEVICE/${d.id}/values/attributes/SHARED_SCOPE`),
    await api('GET', `/api/plugins/telemetry/DEVICE/${d.id}/values/timeseries`),
    await api('GET', `/api/plugins/telemetry/DEVICE/${d.id}/values/timeseries?useStrictDataTypes=true`),
  ];
  expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
}

describe(`JSON nesting limit (${MAX_JSON_DEPTH})`, () => {
  const writes: [string, (d: DeviceRef, body: string) => Promise<{ status: number; json: () => unknown }>][] = [
    ['telemetry', (d, body) => call(server.httpUrl, 'POST', `/api/v1/${d.token}/telemetry`, body)],
    ['client attributes', (d, body) => call(server.httpUrl, 'POST', `/api/v1/${d.token}/attributes`, body)],
    ['shared attributes (control API)', (d, body) => api('POST', `/api/plugins/telemetry/DEVICE/${d.id}/attributes/SHARED_SCOPE`, body)],
  ];

  for (const [what, write] of writes) {
    for (const double of [false, true]) {
      it(`${what}${double ? ' with a 1.0 inside' : ''}: stores the limit, refuses one more with 400, and reads stay 200`, async () => {
        const d = await newDeviceVia(api);
        expect((await write(d, deepObject(MAX_JSON_DEPTH, double))).status).toBe(200);
        const over = await write(d, deepObject(MAX_JSON_DEPTH + 1, double));
        expect(over.status).toBe(400);
        expect(over.json()).toMatchObject(tooDeep);
        await readsStillWork(d);
      });
    }
  }

  it('reads the deepest value back whole through op 3, and pushes it through op 4', async () => {
    const d = await newDeviceVia(api);
    const poll = call(server.httpUrl, 'GET', `/api/v1/${d.token}/attributes/updates?timeout=20000`);
    await openPolls(server, 'attributes', 1);
    const body = deepObject(MAX_JSON_DEPTH, true);
    expect((await api('POST', `/api/plugins/telemetry/DEVICE/${d.id}/attributes/SHARED_SCOPE`, body)).status).toBe(200);
    expect((await poll).text).toBe(body);
    expect((await call(server.httpUrl, 'GET', `/api/v1/${d.token}/attributes`)).text).toBe(`{"shared":${body}}`);
  });

  it('login and provisioning (no credentials needed) answer as usual at the limit and 400 past it', async () => {
    const login = (body: string) => call(server.httpUrl, 'POST', '/api/auth/login', body);
    const provision = (body: string) => call(server.httpUrl, 'POST', '/api/v1/provision', body);
    const credentials = '"username":"nobody@example.com","password":"x",';
    const keys = '"provisionDeviceKey":"no-such-key","provisionDeviceSecret":"s",';
    expect((await login(deepObject(MAX_JSON_DEPTH, false, credentials))).status).toBe(401);
    expect((await provision(deepObject(MAX_JSON_DEPTH, true, keys))).json()).toMatchObject({ status: 'NOT_FOUND' });
    for (const res of [
      await login(deepObject(MAX_JSON_DEPTH + 1, false, credentials)),
      await login(nested(50_000)),
      await provision(deepObject(MAX_JSON_DEPTH + 1, true, keys)),
      await provision(nested(50_000, true)),
    ]) {
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject(tooDeep);
    }
  });
});
