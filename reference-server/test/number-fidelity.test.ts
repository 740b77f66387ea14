// Numbers keep their type and digits on every read path. Assertions are on the response TEXT: a
// JSON value compare cannot tell 42.0 from 42, and JSON.parse rounds 9007199254740993.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, storedRows, type TestServer } from './helpers.js';
import { newDeviceVia, openPolls, startAdminServer, type Api, type DeviceRef } from './control-helpers.js';

let server: TestServer;
let api: Api;
beforeAll(async () => {
  ({ server, api } = await startAdminServer());
});
afterAll(async () => {
  await stopTestServer(server);
});

const device = (d: DeviceRef, method: 'GET' | 'POST', path: string, body?: string) =>
  call(server.httpUrl, method, `/api/v1/${d.token}/${path}`, body);

// Sent as text; sorted by key as the store returns them. __proto__ is a key like any other.
const SENT = '{"d":42.0,"l":9223372036854775807,"m":9007199254740993,"n":-9223372036854775808,' +
  '"big":12345678901234567890,"s":"1.0","z":"007","e":1e2,"j":{"v":1.0,"w":12345678901234567890},"__proto__":1.5}';
const TYPED = '"__proto__":1.5,"big":"12345678901234567890","d":42.0,"e":100,"j":{"v":1.0,"w":12345678901234567890},' +
  '"l":9223372036854775807,"m":9007199254740993,"n":-9223372036854775808,"s":1.0,"z":7';

describe('numbers through the device API', () => {
  it('op 3 returns each client attribute with its type and every digit', async () => {
    const d = await newDeviceVia(api);
    expect((await device(d, 'POST', 'attributes', SENT)).status).toBe(200);
    const res = await device(d, 'GET', 'attributes');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).toBe(`{"client":{${TYPED}}}`);
  });

  it('op 4 pushes a shared change set through the control API with its numbers as typed', async () => {
    const d = await newDeviceVia(api);
    const poll = device(d, 'GET', 'attributes/updates?timeout=20000');
    await openPolls(server, 'attributes', 1);
    const set = await api('POST', `/api/plugins/telemetry/DEVICE/${d.id}/attributes/SHARED_SCOPE`,
      '{"d":42.0,"l":9223372036854775807,"big":12345678901234567890,"__proto__":{"x":1.0}}');
    expect(set.status).toBe(200);
    const res = await poll;
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"d":42.0,"l":9223372036854775807,"big":"12345678901234567890","__proto__":{"x":1.0}}');
    // and op 3 agrees
    expect((await device(d, 'GET', 'attributes?sharedKeys=d,__proto__')).text).toBe('{"shared":{"__proto__":{"x":1.0},"d":42.0}}');
  });

  it('refuses a ts that is not a valid timestamp with 400 and stores nothing', async () => {
    const d = await newDeviceVia(api);
    for (const body of ['{"ts":1e300,"values":{"a":1}}', '{"ts":9223372036854775807,"values":{"a":1}}', '{"ts":1.5,"values":{"a":1}}']) {
      const res = await device(d, 'POST', 'telemetry', body);
      expect(res.status, body).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, errorCode: 31 });
    }
    expect(await storedRows(server.ctx.store, server.dbPath, d.id)).toBe(0);
    expect((await api('GET', `/api/plugins/telemetry/DEVICE/${d.id}/values/timeseries`)).text).toBe('{}');
    expect((await device(d, 'POST', 'telemetry', '{"ts":1.0e3,"values":{"a":1}}')).status).toBe(200);
    expect((await api('GET', `/api/plugins/telemetry/DEVICE/${d.id}/values/timeseries?useStrictDataTypes=true`)).text)
      .toBe('{"a":[{"ts":1000,"value":1}]}');
  });
});

describe('numbers through the control API reads', () => {
  it('values/attributes prints each value from its type', async () => {
    const d = await newDeviceVia(api);
    await device(d, 'POST', 'attributes', '{"d":42.0,"m":9007199254740993,"z":"007","x":12345678.5}');
    const res = await api('GET', `/api/plugins/telemetry/DEVICE/${d.id}/values/attributes/CLIENT_SCOPE`);
    expect(res.status).toBe(200);
    const ts = (res.json() as { lastUpdateTs: number }[])[0].lastUpdateTs;
    expect(res.text).toBe(`[{"key":"d","value":42.0,"lastUpdateTs":${ts}},{"key":"m","value":9007199254740993,"lastUpdateTs":${ts}},` +
      `{"key":"x","value":1.23456785E7,"lastUpdateTs":${ts}},{"key":"z","value":7,"lastUpdateTs":${ts}}]`);
  });

  it('values/timeseries prints typed values when strict, Java strings otherwise', async () => {
    const d = await newDeviceVia(api);
    await device(d, 'POST', 'telemetry', '{"ts":5,"values":{"d":42.0,"l":9223372036854775807,"s":"1.0","j":{"a":1.0},"b":true,"t":"x"}}');
    const read = (strict: boolean) =>
      api('GET', `/api/plugins/telemetry/DEVICE/${d.id}/values/timeseries?keys=d,l,s,j,b,t&useStrictDataTypes=${strict}`);
    // Keys come in the order asked for (ThingsBoard reads them one by one).
    expect((await read(true)).text).toBe('{"d":[{"ts":5,"value":42.0}],"l":[{"ts":5,"value":9223372036854775807}],"s":[{"ts":5,"value":1.0}],' +
      '"j":[{"ts":5,"value":{"a":1.0}}],"b":[{"ts":5,"value":true}],"t":[{"ts":5,"value":"x"}]}');
    expect((await read(false)).text).toBe('{"d":[{"ts":5,"value":"42.0"}],"l":[{"ts":5,"value":"9223372036854775807"}],"s":[{"ts":5,"value":"1.0"}],' +
      '"j":[{"ts":5,"value":"{\\"a\\":1.0}"}],"b":[{"ts":5,"value":"true"}],"t":[{"ts":5,"value":"x"}]}');
  });

  it('a two-way RPC reply reaches the REST caller as the bytes the device sent', async () => {
    const d = await newDeviceVia(api);
    const poll = device(d, 'GET', 'rpc?timeout=20000');
    await openPolls(server, 'rpc', 1);
    const rest = api('POST', `/api/rpc/twoway/${d.id}`, { method: 'read', params: {} });
    const { id } = (await poll).json() as { id: number };
    const reply = '{"v":12345678901234567890, "d":1.0}';
    expect((await device(d, 'POST', `rpc/${id}`, reply)).status).toBe(200);
    const res = await rest;
    expect(res.status).toBe(200);
    expect(res.text).toBe(reply);
  });

  it('server RPC params reach the device with each number as the caller sent it (op 5)', async () => {
    const d = await newDeviceVia(api);
    const poll = device(d, 'GET', 'rpc?timeout=20000');
    await openPolls(server, 'rpc', 1);
    const rest = api('POST', `/api/rpc/oneway/${d.id}`, '{"method":"set","params":{"v":1.0,"big":12345678901234567890,"m":9007199254740993,"e":1e2,"list":[2.50]}}');
    const command = await poll;
    expect(command.text).toBe('{"id":0,"method":"set","params":{"v":1.0,"big":12345678901234567890,"m":9007199254740993,"e":1e2,"list":[2.50]}}');
    expect((await rest).status).toBe(200);
    // A number as the whole params keeps its text too.
    const second = device(d, 'GET', 'rpc?timeout=20000');
    await openPolls(server, 'rpc', 1);
    const scalar = api('POST', `/api/rpc/oneway/${d.id}`, '{"method":"level","params":1.0}');
    expect((await second).text).toBe('{"id":1,"method":"level","params":1.0}');
    expect((await scalar).status).toBe(200);
  });

  it('the echo rule answers the device-side RPC params with each number as sent (op 7)', async () => {
    const d = await newDeviceVia(api);
    const echoed = await device(d, 'POST', 'rpc', '{"method":"echo","params":{"a":1.0,"b":[9007199254740993,1e2]}}');
    expect(echoed.status).toBe(200);
    expect(echoed.text).toBe('{"a":1.0,"b":[9007199254740993,1e2]}');
    expect((await device(d, 'POST', 'rpc', '{"method":"echo","params":42.0}')).text).toBe('42.0');
  });

  it('the persistent RPC listing shows params, the device\'s reply and additionalInfo as sent', async () => {
    const d = await newDeviceVia(api);
    const sent = await api('POST', `/api/rpc/twoway/${d.id}`, '{"method":"read","params":{"p":1.0},"persistent":true,"additionalInfo":{"x":2.0}}');
    const { rpcId } = sent.json() as { rpcId: string };
    const command = await device(d, 'GET', 'rpc?timeout=20000');
    const { id } = command.json() as { id: number };
    const reply = '{"v":12345678901234567890, "d":1.0}';
    expect((await device(d, 'POST', `rpc/${id}`, reply)).status).toBe(200);
    const one = (await api('GET', `/api/rpc/persistent/${rpcId}`)).text;
    expect(one).toContain(`"body":{"method":"read","params":"{\\"p\\":1.0}"}`);
    expect(one).toContain(`"response":${reply},"status":"SUCCESSFUL","additionalInfo":{"x":2.0}}`);
    const page = await api('GET', `/api/rpc/persistent/device/${d.id}?pageSize=10&page=0`);
    expect(page.status).toBe(200);
    expect(page.text).toBe(`{"data":[${one}],"totalPages":1,"totalElements":1,"hasNext":false}`);
  });
});
