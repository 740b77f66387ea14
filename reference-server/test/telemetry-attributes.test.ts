import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDevice, startTestServer, stopTestServer, storedRows, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await stopTestServer(server);
});

const post = (token: string, path: string, body: unknown) => call(server.httpUrl, 'POST', `/api/v1/${token}/${path}`, body as object);

describe('operation 1: telemetry', () => {
  it('stores form (a) with the server time, keeping each value type', async () => {
    const device = await createDevice(server.ctx);
    const before = Date.now();
    const res = await post(device.token, 'telemetry', '{"t":42.5,"n":73,"d":42.0,"b":true,"s":"on","j":{"x":[1,2]},"z":null}');
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const stored = await server.ctx.store.readTelemetry(device.id, (s) => s.latest());
    const byKey = Object.fromEntries(stored.map((e) => [e.key, e]));
    expect(Object.keys(byKey).sort()).toEqual(['b', 'd', 'j', 'n', 's', 't']);
    expect(byKey.t).toMatchObject({ type: 'DOUBLE', value: 42.5 });
    expect(byKey.n).toMatchObject({ type: 'LONG', value: 73 });
    expect(byKey.d).toMatchObject({ type: 'DOUBLE', value: 42 });
    expect(byKey.b).toMatchObject({ type: 'BOOLEAN', value: true });
    expect(byKey.s).toMatchObject({ type: 'STRING', value: 'on' });
    expect(byKey.j).toMatchObject({ type: 'JSON', value: '{"x":[1,2]}' });
    for (const entry of stored) {
      expect(entry.ts).toBeGreaterThanOrEqual(before);
      expect(entry.ts).toBeLessThanOrEqual(after);
    }
  });

  it('stores form (c) at the given ts and an array of mixed forms', async () => {
    const device = await createDevice(server.ctx);
    expect((await post(device.token, 'telemetry', { ts: 1451649600512, values: { key1: 'value1' } })).status).toBe(200);
    expect((await post(device.token, 'telemetry', [{ ts: 1000, values: { a: 1 } }, { b: 2 }])).status).toBe(200);
    const stored = Object.fromEntries((await server.ctx.store.readTelemetry(device.id, (s) => s.latest())).map((e) => [e.key, e]));
    expect(stored.key1).toMatchObject({ ts: 1451649600512, value: 'value1' });
    expect(stored.a).toMatchObject({ ts: 1000, type: 'LONG', value: 1 });
    expect(stored.b.ts).toBeGreaterThan(1451649600512);
  });

  it('stores a message of more keys than one statement takes; a key twice keeps its newest value as latest', async () => {
    const device = await createDevice(server.ctx);
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
    const res = await post(device.token, 'telemetry', [{ ts: 2000, values: { ...many, dup: 2 } }, { ts: 1000, values: { dup: 1 } }]);
    expect(res.status).toBe(200);
    expect(await storedRows(server.ctx.store, server.dbPath, device.id)).toBe(42);
    const latest = await server.ctx.store.readTelemetry(device.id, (s) => s.latest());
    expect(latest).toHaveLength(41);
    expect(latest.find((e) => e.key === 'dup')).toEqual({ key: 'dup', ts: 2000, type: 'LONG', value: 2 });
    expect(latest.find((e) => e.key === 'k39')).toEqual({ key: 'k39', ts: 2000, type: 'LONG', value: 39 });
  });

  it('casts numeric strings as ThingsBoard does and keeps {"ts":1} without values as a key', async () => {
    const device = await createDevice(server.ctx);
    expect((await post(device.token, 'telemetry', { c: '42', o: '007', f: '1.5', ts: 5 })).status).toBe(200);
    const stored = Object.fromEntries((await server.ctx.store.readTelemetry(device.id, (s) => s.latest())).map((e) => [e.key, e]));
    expect(stored.c).toMatchObject({ type: 'LONG', value: 42 });
    expect(stored.o).toMatchObject({ type: 'LONG', value: 7 });
    expect(stored.f).toMatchObject({ type: 'DOUBLE', value: 1.5 });
    expect(stored.ts).toMatchObject({ type: 'LONG', value: 5 });
  });

  it('accepts {} (the clients\' connection test) and stores nothing', async () => {
    const device = await createDevice(server.ctx);
    expect((await post(device.token, 'telemetry', {})).status).toBe(200);
    expect(await storedRows(server.ctx.store, server.dbPath, device.id)).toBe(0);
  });

  it.each([
    ['malformed JSON', '{"temperature":'],
    ['a top-level number', '42'],
    ['values that is not an object', '{"ts":1,"values":5}'],
    ['an array with a non-object element', '[{"a":1},2]'],
    ['trailing garbage', '{"a":1}x'],
    ['null', 'null'],
    ['a string', '"temperature"'],
  ])('rejects %s with 400 and the error body, storing nothing', async (_what, body) => {
    const device = await createDevice(server.ctx);
    const res = await post(device.token, 'telemetry', body);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, errorCode: 31, message: expect.any(String) });
    expect(await storedRows(server.ctx.store, server.dbPath, device.id)).toBe(0);
  });

  it('rejects a missing body with 400', async () => {
    const device = await createDevice(server.ctx);
    const res = await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Required request body is missing' });
  });

  it('answers 401 with the error body for an unknown token and stores nothing', async () => {
    const res = await post('no-such-token', 'telemetry', { a: 1 });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ status: 401, errorCode: 10 });
  });
});

describe('operations 2 and 3: attributes', () => {
  it('stores client attributes and reads them back grouped, shared included', async () => {
    const device = await createDevice(server.ctx);
    // As text: a JavaScript object literal would send 42.0 as 42.
    const body = '{"a1":"v","a2":true,"a3":42.0,"a4":73,"a5":{"n":[1]}}';
    expect((await post(device.token, 'attributes', body)).status).toBe(200);
    await server.ctx.attributes.save(device.id, 'SHARED_SCOPE', [{ key: 's1', type: 'STRING', value: 'x', ts: 1 }]);
    const all = await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes`);
    expect(all.status).toBe(200);
    // ThingsBoard prints the DOUBLE as 42.0 (msa HttpClientTest#getAttributes).
    expect(all.text).toBe('{"client":{"a1":"v","a2":true,"a3":42.0,"a4":73,"a5":{"n":[1]}},"shared":{"s1":"x"}}');
  });

  it('reads back every change made after an earlier read: client upload, shared save, shared delete', async () => {
    const device = await createDevice(server.ctx);
    const read = async () => (await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes`)).text;
    await post(device.token, 'attributes', { a: 1 });
    expect(await read()).toBe('{"client":{"a":1}}');
    await post(device.token, 'attributes', '{"a":2.0}');
    expect(await read()).toBe('{"client":{"a":2.0}}');
    await server.ctx.attributes.save(device.id, 'SHARED_SCOPE', [{ key: 's', ts: Date.now(), type: 'STRING', value: 'x' }]);
    expect(await read()).toBe('{"client":{"a":2.0},"shared":{"s":"x"}}');
    await server.ctx.attributes.remove(device.id, 'SHARED_SCOPE', ['s']);
    expect(await read()).toBe('{"client":{"a":2.0}}');
  });

  it('accepts comma lists and repeated keys, omits missing keys and empty groups', async () => {
    const device = await createDevice(server.ctx);
    await post(device.token, 'attributes', { a: 1, b: 2, c: 3 });
    await server.ctx.attributes.save(device.id, 'SHARED_SCOPE', [{ key: 's', type: 'LONG', value: 9, ts: 1 }]);
    const get = (query: string) => call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes?${query}`);
    expect((await get('clientKeys=a,c,missing')).json()).toEqual({ client: { a: 1, c: 3 } });
    expect((await get('clientKeys=a&clientKeys=b')).json()).toEqual({ client: { a: 1, b: 2 } });
    expect((await get('sharedKeys=s&sharedKeys=nope')).json()).toEqual({ shared: { s: 9 } });
    expect((await get('sharedKeys=nope')).json()).toEqual({});
    expect((await get('client_keys=a')).json()).toEqual({ client: { a: 1, b: 2, c: 3 }, shared: { s: 9 } });
  });

  it('splits key lists as ThingsBoard does: spaces are part of a key, empty items match nothing, only commas is no list', async () => {
    const device = await createDevice(server.ctx);
    await post(device.token, 'attributes', '{"a":1,"b":2," b":3}');
    await server.ctx.attributes.save(device.id, 'SHARED_SCOPE', [{ key: 'x', type: 'LONG', value: 9, ts: 1 }]);
    const get = async (query: string) => (await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes?${query}`)).text;
    expect(await get('clientKeys=a,%20b')).toBe('{"client":{" b":3,"a":1}}');
    expect(await get('sharedKeys=%20x')).toBe('{}');
    expect(await get('clientKeys=a,,b,')).toBe('{"client":{"a":1,"b":2}}');
    expect(await get('clientKeys=a&clientKeys=&clientKeys=b')).toBe('{"client":{"a":1,"b":2}}');
    // Java's split drops trailing empty items: "," is no key at all, so the parameter is absent.
    expect(await get('clientKeys=,&sharedKeys=x')).toBe('{"shared":{"x":9}}');
    expect(await get('clientKeys=,,')).toBe('{"client":{" b":3,"a":1,"b":2},"shared":{"x":9}}');
  });

  it('rejects an attributes array with 400', async () => {
    const device = await createDevice(server.ctx);
    const res = await post(device.token, 'attributes', [{ a: 1 }]);
    expect(res.status).toBe(400);
    expect(server.ctx.store.attributes(device.id, 'CLIENT_SCOPE')).toEqual([]);
  });
});

describe('routing errors', () => {
  it('answers 404 for an unknown path and 405 for a wrong method, with the error body', async () => {
    const device = await createDevice(server.ctx);
    const unknown = await call(server.httpUrl, 'GET', `/api/v1/${device.token}/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 404, errorCode: 32 });
    const wrong = await call(server.httpUrl, 'GET', `/api/v1/${device.token}/telemetry`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(wrong.json()).toMatchObject({ status: 405, errorCode: 31 });
  });

  it('answers 413 above the RPC payload limit (64 KiB) and accepts exactly the limit', async () => {
    const device = await createDevice(server.ctx);
    const exactly = JSON.stringify({ method: 'echo', params: { p: 'x'.repeat(65_536 - 35) } });
    expect(Buffer.byteLength(exactly)).toBe(65_536);
    expect((await post(device.token, 'rpc', exactly)).status).toBe(200);
    const over = JSON.stringify({ method: 'echo', params: { p: 'x'.repeat(65_536 - 34) } });
    const res = await post(device.token, 'rpc', over);
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ status: 413, message: expect.stringContaining('Payload') });
  });

  it('answers 400 for a type mismatch in the path or query', async () => {
    const device = await createDevice(server.ctx);
    expect((await post(device.token, 'rpc/abc', { r: 1 })).status).toBe(400);
    expect((await call(server.httpUrl, 'GET', `/api/v1/${device.token}/rpc?timeout=xyz`)).status).toBe(400);
  });
});
