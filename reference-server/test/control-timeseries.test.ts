// TelemetryController's key lists, time-series writes and deletes, all-scope attribute reads and the
// forms without an entity type, over real sockets, read back through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { newDeviceVia, startAdminServer, UNKNOWN_ID, type Api, type DeviceRef } from './control-helpers.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

const base = (device: DeviceRef | string) => `/api/plugins/telemetry/DEVICE/${typeof device === 'string' ? device : device.id}`;
const latest = async (device: DeviceRef, keys: string) => (await api('GET', `${base(device)}/values/timeseries?keys=${keys}&useStrictDataTypes=true`)).json();
const history = async (device: DeviceRef, key: string) =>
  (await api('GET', `${base(device)}/values/timeseries?keys=${key}&startTs=0&endTs=9999999999999&useStrictDataTypes=true`)).json();

describe('key lists', () => {
  it('lists time-series keys, attribute keys of every scope in ThingsBoard order, and of one scope', async () => {
    const device = await newDeviceVia(api);
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { temp: 1, hum: 2 });
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/attributes`, { fw: '1', both: 1 });
    await api('POST', `${base(device)}/attributes/SHARED_SCOPE`, { target: 3, both: 2 });
    await api('POST', `${base(device)}/attributes/SERVER_SCOPE`, { inventory: 'x' });
    expect((await api('GET', `${base(device)}/keys/timeseries`)).json()).toEqual(['hum', 'temp']);
    // `active`: the device state's server attribute, there from the device's creation (ThingsBoard's TelemetryApiClientTest counts it too).
    expect((await api('GET', `${base(device)}/keys/attributes`)).json()).toEqual(['both', 'fw', 'active', 'inventory', 'both', 'target']);
    expect((await api('GET', `${base(device)}/keys/attributes/SHARED_SCOPE`)).json()).toEqual(['both', 'target']);
    expect((await api('GET', `${base(device)}/keys/attributes/BOGUS_SCOPE`)).status).toBe(400);
    const missing = await api('GET', `${base(UNKNOWN_ID)}/keys/timeseries`);
    expect(missing.status).toBe(404);
    expect(missing.text).toBe("Device with requested id wasn't found!");
  });

  it('reads the attributes of every scope, filtered by keys', async () => {
    const device = await newDeviceVia(api);
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/attributes`, { c: true });
    await api('POST', `${base(device)}/attributes/SHARED_SCOPE`, { s: 'shared' });
    await api('POST', `${base(device)}/attributes/SERVER_SCOPE`, { v: 5 });
    const all = (await api('GET', `${base(device)}/values/attributes`)).json() as { key: string; value: unknown; lastUpdateTs: number }[];
    expect(all.map(({ key, value }) => ({ key, value }))).toEqual([{ key: 'c', value: true }, { key: 'active', value: false }, { key: 'v', value: 5 }, { key: 's', value: 'shared' }]);
    expect(all.every((e) => e.lastUpdateTs > 0)).toBe(true);
    const some = (await api('GET', `${base(device)}/values/attributes?keys=s,c`)).json() as { key: string }[];
    expect(some.map((e) => e.key)).toEqual(['c', 's']);
  });
});

describe('time-series writes', () => {
  it('saves the device body forms through REST, typed as the device API types them, with or without a TTL', async () => {
    const device = await newDeviceVia(api);
    expect((await api('POST', `${base(device)}/timeseries/ANY`, { temp: 21.5, on: true })).status).toBe(200);
    expect((await api('POST', `${base(device)}/timeseries/ANY/3600`, [{ ts: 1000, values: { n: 7 } }, { ts: 2000, values: { n: 8 } }])).status).toBe(200);
    expect(await latest(device, 'temp,on,n')).toMatchObject({ temp: [{ value: 21.5 }], on: [{ value: true }], n: [{ ts: 2000, value: 8 }] });
    expect(await history(device, 'n')).toEqual({ n: [{ ts: 2000, value: 8 }, { ts: 1000, value: 7 }] });
    const empty = await api('POST', `${base(device)}/timeseries/ANY`, {});
    expect(empty.status).toBe(400);
    expect(empty.json()).toMatchObject({ message: 'No time series data found in request body!' });
    expect((await api('POST', `${base(device)}/timeseries/ANY/-1`, { a: 1 })).status).toBe(400);
    expect((await api('POST', `${base(UNKNOWN_ID)}/timeseries/ANY`, { a: 1 })).status).toBe(404);
  });

  it('deletes a range, keeping or rewriting the latest value, and everything with deleteAllDataForKeys', async () => {
    const device = await newDeviceVia(api);
    await api('POST', `${base(device)}/timeseries/ANY`, [1000, 2000, 3000].map((ts) => ({ ts, values: { a: ts / 1000, b: ts / 1000 } })));
    // endTs is exclusive: 3000 stays.
    expect((await api('DELETE', `${base(device)}/timeseries/delete?keys=a&startTs=2000&endTs=3000`)).status).toBe(200);
    expect(await history(device, 'a')).toEqual({ a: [{ ts: 3000, value: 3 }, { ts: 1000, value: 1 }] });
    // The latest in the range goes; rewriteLatestIfDeleted makes the newest remaining one latest.
    await api('DELETE', `${base(device)}/timeseries/delete?keys=a&startTs=3000&endTs=3001&rewriteLatestIfDeleted=true`);
    expect(await latest(device, 'a')).toEqual({ a: [{ ts: 1000, value: 1 }] });
    // Without rewriting, the key has no latest value any more: asked for by name, it reads as null.
    await api('DELETE', `${base(device)}/timeseries/delete?keys=b&startTs=3000&endTs=3001`);
    expect(await latest(device, 'b')).toEqual({ b: [{ ts: expect.any(Number), value: null }] });
    expect((await api('GET', `${base(device)}/keys/timeseries`)).json()).toEqual(['a']);
    // deleteLatest=false keeps it.
    await api('DELETE', `${base(device)}/timeseries/delete?keys=a&deleteAllDataForKeys=true&deleteLatest=false`);
    expect(await history(device, 'a')).toEqual({});
    expect(await latest(device, 'a')).toEqual({ a: [{ ts: 1000, value: 1 }] });
    await api('DELETE', `${base(device)}/timeseries/delete?keys=a&deleteAllDataForKeys=true`);
    expect(await latest(device, 'a')).toEqual({ a: [{ ts: expect.any(Number), value: null }] });

    const noKeys = await api('DELETE', `${base(device)}/timeseries/delete?startTs=0&endTs=1`);
    expect(noKeys.status).toBe(400);
    const noRange = await api('DELETE', `${base(device)}/timeseries/delete?keys=a`);
    expect(noRange.json()).toMatchObject({ status: 400, message: "When deleteAllDataForKeys is false, start and end timestamp values shouldn't be empty" });
  });
});

describe('attributes without the entity type in the path', () => {
  it('sets and deletes shared attributes at /api/plugins/telemetry/{deviceId}/{scope}', async () => {
    const device = await newDeviceVia(api);
    expect((await api('POST', `/api/plugins/telemetry/${device.id}/SHARED_SCOPE`, { mode: 'eco', level: 2 })).status).toBe(200);
    const shared = async () => (await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes?sharedKeys=mode,level`)).json();
    expect(await shared()).toEqual({ shared: { mode: 'eco', level: 2 } });
    expect((await api('DELETE', `/api/plugins/telemetry/${device.id}/SHARED_SCOPE?keys=mode`)).status).toBe(200);
    expect(await shared()).toEqual({ shared: { level: 2 } });
    expect((await api('POST', `/api/plugins/telemetry/${device.id}/CLIENT_SCOPE`, { a: 1 })).status).toBe(400);
    expect((await api('POST', `/api/plugins/telemetry/${UNKNOWN_ID}/SHARED_SCOPE`, { a: 1 })).status).toBe(404);
  });
});
