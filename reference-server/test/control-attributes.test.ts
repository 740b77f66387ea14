import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { startAdminServer, UNKNOWN_ID as UNKNOWN, newDeviceVia, openPolls, type Api } from './control-helpers.js';
import { javaDouble } from '../kv-json.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

const attributesPath = (id: string, scope: string) => `/api/plugins/telemetry/DEVICE/${id}/attributes/${scope}`;

describe('attributes through the control API', () => {
  it('delivers a shared attribute set through REST to an open attribute poll', async () => {
    const device = await newDeviceVia(api);
    const poll = call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes/updates?timeout=20000`);
    await openPolls(server, 'attributes', 1);
    expect((await api('POST', attributesPath(device.id, 'SHARED_SCOPE'), { targetTemperature: 21.5, mode: 'eco' })).status).toBe(200);
    const update = await poll;
    expect(update.status).toBe(200);
    expect(update.json()).toEqual({ targetTemperature: 21.5, mode: 'eco' });
    const read = await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes?sharedKeys=mode`);
    expect(read.json()).toEqual({ shared: { mode: 'eco' } });
  });

  it('sets attributes through the v1 path and keeps server attributes away from the device', async () => {
    const device = await newDeviceVia(api);
    expect((await api('POST', `/api/plugins/telemetry/DEVICE/${device.id}/SHARED_SCOPE`, { a: 1 })).status).toBe(200);
    expect((await api('POST', attributesPath(device.id, 'SERVER_SCOPE'), { secret: '42' })).status).toBe(200);
    const server_ = (await api('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes/SERVER_SCOPE`)).json();
    // REST values keep their JSON types: the string "42" is not cast to a number.
    // `active` is the device state's (device-state.ts), saved when the device was created.
    expect(server_).toEqual([{ key: 'active', value: false, lastUpdateTs: expect.any(Number) }, { key: 'secret', value: '42', lastUpdateTs: expect.any(Number) }]);
    expect((await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes`)).json()).toEqual({ shared: { a: 1 } });
  });

  it('reads one scope as [{key, value, lastUpdateTs}], filtered by keys', async () => {
    const device = await newDeviceVia(api);
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/attributes`, { fw: '1.0', on: true, cfg: { a: [1] } });
    const all = (await api('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes/CLIENT_SCOPE`)).json() as { key: string }[];
    expect(all.map((e) => e.key).sort()).toEqual(['cfg', 'fw', 'on']);
    const some = await api('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes/CLIENT_SCOPE?keys=on,cfg`);
    expect((some.json() as { key: string; value: unknown }[]).sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'cfg', value: { a: [1] }, lastUpdateTs: expect.any(Number) },
      { key: 'on', value: true, lastUpdateTs: expect.any(Number) },
    ]);
  });

  it('deletes shared attributes and tells an open poll which keys went', async () => {
    const device = await newDeviceVia(api);
    await api('POST', attributesPath(device.id, 'SHARED_SCOPE'), { a: 1, b: 2 });
    const poll = call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes/updates?timeout=20000`);
    await openPolls(server, 'attributes', 1);
    expect((await api('DELETE', `/api/plugins/telemetry/DEVICE/${device.id}/SHARED_SCOPE?keys=a,missing`)).status).toBe(200);
    expect((await poll).json()).toEqual({ deleted: ['a'] });
    expect(server.ctx.store.attributes(device.id, 'SHARED_SCOPE').map((e) => e.key)).toEqual(['b']);
  });

  it('takes repeated key parameters instead of keys (a key may hold a comma), and refuses a blank key', async () => {
    const device = await newDeviceVia(api);
    await api('POST', attributesPath(device.id, 'SERVER_SCOPE'), { 'a,b': 1, c: 2 });
    const read = (query: string) => api('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes/SERVER_SCOPE?${query}`);
    expect(((await read('key=a,b')).json() as { key: string }[]).map((e) => e.key)).toEqual(['a,b']);
    expect(((await read('key=c&key=a,b&keys=c')).json() as { key: string }[]).map((e) => e.key).sort()).toEqual(['a,b', 'c']);
    const blank = await api('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes?keys=c,,a`);
    expect(blank.json()).toMatchObject({ status: 400, errorCode: 31, message: 'Incorrect attribute key ' });
    expect((await api('DELETE', `/api/plugins/telemetry/DEVICE/${device.id}/SERVER_SCOPE?key=a,b`)).status).toBe(200);
    expect(((await read('')).json() as { key: string }[]).map((e) => e.key)).toEqual(['active', 'c']);
    const empty = await api('DELETE', `/api/plugins/telemetry/DEVICE/${device.id}/SERVER_SCOPE`);
    expect(empty.json()).toMatchObject({ status: 400, message: 'Empty keys: []' });
  });

  it('answers 400 for a client scope write, an empty object, a non-object or missing keys, and 404 for an unknown device', async () => {
    const device = await newDeviceVia(api);
    expect((await api('POST', attributesPath(device.id, 'CLIENT_SCOPE'), { a: 1 })).status).toBe(400);
    expect((await api('POST', attributesPath(device.id, 'SHARED_SCOPE'), {})).status).toBe(400);
    expect((await api('POST', attributesPath(device.id, 'SHARED_SCOPE'), [1, 2])).status).toBe(400);
    expect((await api('POST', attributesPath(device.id, 'SHARED_SCOPE'), { ' ': 1 })).status).toBe(400);
    expect((await api('DELETE', `/api/plugins/telemetry/DEVICE/${device.id}/SHARED_SCOPE`)).status).toBe(400);
    expect((await api('POST', attributesPath(UNKNOWN, 'SHARED_SCOPE'), { a: 1 })).status).toBe(404);
    expect((await api('GET', `/api/plugins/telemetry/DEVICE/${UNKNOWN}/values/attributes/SHARED_SCOPE`)).status).toBe(404);
  });
});

describe('timeseries through the control API', () => {
  it('answers the latest values as strings, Java-style, and typed with useStrictDataTypes', async () => {
    const device = await newDeviceVia(api);
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, '{"ts":1000,"values":{"t":42.0,"n":73,"b":true,"s":"x","j":{"k":1}}}');
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { ts: 2000, values: { n: 74 } });
    const path = `/api/plugins/telemetry/DEVICE/${device.id}/values/timeseries`;
    expect((await api('GET', `${path}?keys=t,n,b,s,j`)).json()).toEqual({
      t: [{ ts: 1000, value: '42.0' }], n: [{ ts: 2000, value: '74' }], b: [{ ts: 1000, value: 'true' }],
      s: [{ ts: 1000, value: 'x' }], j: [{ ts: 1000, value: '{"k":1}' }],
    });
    expect((await api('GET', `${path}?keys=n,j&useStrictDataTypes=true`)).json()).toEqual({ n: [{ ts: 2000, value: 74 }], j: [{ ts: 1000, value: { k: 1 } }] });
    expect(Object.keys((await api('GET', path)).json() as object).sort()).toEqual(['b', 'j', 'n', 's', 't']);
  });

  it('answers a range newest first, limited per key, or oldest first with orderBy=ASC', async () => {
    const device = await newDeviceVia(api);
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, [1, 2, 3, 4].map((i) => ({ ts: i * 1000, values: { v: i } })));
    const path = `/api/plugins/telemetry/DEVICE/${device.id}/values/timeseries?keys=v&useStrictDataTypes=true`;
    // endTs is exclusive (ThingsBoard: ts >= startTs AND ts < endTs).
    expect((await api('GET', `${path}&startTs=1500&endTs=4001&limit=2`)).json()).toEqual({ v: [{ ts: 4000, value: 4 }, { ts: 3000, value: 3 }] });
    expect((await api('GET', `${path}&startTs=0&endTs=2000&orderBy=ASC`)).json()).toEqual({ v: [{ ts: 1000, value: 1 }] });
    expect((await api('GET', `${path}&startTs=0&endTs=2001&orderBy=asc`)).json()).toEqual({ v: [{ ts: 1000, value: 1 }, { ts: 2000, value: 2 }] });
    expect((await api('GET', `${path}&startTs=5000&endTs=6000`)).json()).toEqual({});
    // startTs > endTs reads nothing; one of the two alone is the latest read (Spring maps on both).
    expect((await api('GET', `${path}&startTs=3000&endTs=1000`)).json()).toEqual({});
    expect((await api('GET', `${path}&startTs=1000`)).json()).toEqual({ v: [{ ts: 4000, value: 4 }] });
    expect((await api('GET', `${path}&startTs=abc&endTs=1000`)).status).toBe(400);
  });

  it('prints doubles as Java does', () => {
    expect([42, 1.5, -0.25, 1e7, 1.5e-4, 0].map(javaDouble)).toEqual(['42.0', '1.5', '-0.25', '1.0E7', '1.5E-4', '0.0']);
  });
});
