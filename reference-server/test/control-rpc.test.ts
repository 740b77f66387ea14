import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, startTestServer, stopTestServer, type TestServer } from './helpers.js';
import { adminApi, loginAs, newDeviceVia, openPolls, type Api, type DeviceRef } from './control-helpers.js';

const UNKNOWN = '6a1bd9b0-0000-4000-8000-000000000000';
let server: TestServer;
let api: Api;
beforeAll(async () => {
  // No minimum timeout, so that commands can expire within a test.
  server = await startTestServer({ serverRpcMinTimeoutMs: 0 });
  api = await adminApi(server);
});
afterAll(async () => {
  await stopTestServer(server);
});

/** A non-persistent command has ended and left nothing in the store (ThingsBoard stores persistent ones only). */
function endedUnstored(device: DeviceRef, requestId: number): void {
  expect(server.ctx.rpc.size()).toEqual({ queued: 0, awaiting: 0 });
  expect(server.ctx.store.rpcByRequestId(device.id, requestId)).toBeUndefined();
}

const pollRpc = (device: DeviceRef) => call(server.httpUrl, 'GET', `/api/v1/${device.token}/rpc?timeout=20000`);

/** Opens an RPC poll and waits until it is parked; wrapped, so that awaiting this does not await the poll. */
async function parkedPoll(device: DeviceRef) {
  const poll = pollRpc(device);
  await openPolls(server, 'rpc', 1);
  return { poll };
}

describe('server-side RPC', () => {
  for (const [version, prefix] of [['v1', '/api/plugins/rpc'], ['v2', '/api/rpc']] as const) {
    it(`${version}: a two-way command goes REST -> device poll -> device reply -> REST response`, async () => {
      const device = await newDeviceVia(api);
      const { poll } = await parkedPoll(device);
      const rest = api('POST', `${prefix}/twoway/${device.id}`, { method: 'setGpio', params: { pin: 7, value: 1 } });
      const command = await poll;
      expect(command.status).toBe(200);
      const { id, method, params } = command.json() as { id: number; method: string; params: unknown };
      expect({ method, params }).toEqual({ method: 'setGpio', params: { pin: 7, value: 1 } });
      expect((await call(server.httpUrl, 'POST', `/api/v1/${device.token}/rpc/${id}`, { pin: 7, value: 1, ok: true })).status).toBe(200);
      const response = await rest;
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({ pin: 7, value: 1, ok: true });
    });
  }

  it('hands a command issued while no poll is open to the next poll at once', async () => {
    const device = await newDeviceVia(api);
    const rest = api('POST', `/api/rpc/twoway/${device.id}`, { method: 'ping', params: {} });
    await vi.waitFor(() => expect(server.ctx.rpc.size().queued).toBe(1), { interval: 5 });
    const command = await pollRpc(device);
    expect(command.json()).toEqual({ id: 0, method: 'ping', params: {} });
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/rpc/0`, '"pong"');
    expect((await rest).json()).toBe('pong');
  });

  it('answers a one-way command with 200, an empty body and no content type once delivered, and stores nothing', async () => {
    const device = await newDeviceVia(api);
    const rest = api('POST', `/api/plugins/rpc/oneway/${device.id}`, { method: 'reboot', params: null });
    await vi.waitFor(() => expect(server.ctx.rpc.size().queued).toBe(1), { interval: 5 });
    expect((await pollRpc(device)).json()).toEqual({ id: 0, method: 'reboot', params: null });
    const response = await rest;
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers['content-type']).toBeUndefined();
    endedUnstored(device, 0);
  });

  it('v1: 408 when delivered but not answered, 409 when never delivered', async () => {
    const device = await newDeviceVia(api);
    const { poll } = await parkedPoll(device);
    const unanswered = api('POST', `/api/plugins/rpc/twoway/${device.id}`, { method: 'slow', params: {}, timeout: 300 });
    expect((await poll).status).toBe(200);
    const timedOut = await unanswered;
    expect(timedOut.status).toBe(408);
    expect(timedOut.json()).toMatchObject({ status: 408 });
    endedUnstored(device, 0);

    const undelivered = await api('POST', `/api/plugins/rpc/twoway/${device.id}`, { method: 'lost', params: {}, timeout: 300 });
    expect(undelivered.status).toBe(409);
    endedUnstored(device, 1);
  });

  it('v2: 504 both when delivered but not answered and when never delivered', async () => {
    const device = await newDeviceVia(api);
    const { poll } = await parkedPoll(device);
    const unanswered = api('POST', `/api/rpc/twoway/${device.id}`, { method: 'slow', params: {}, timeout: 300 });
    expect((await poll).status).toBe(200);
    expect((await unanswered).status).toBe(504);
    expect((await api('POST', `/api/rpc/oneway/${device.id}`, { method: 'lost', params: {}, expirationTime: Date.now() + 200 })).status).toBe(504);
  });

  it('answers 406 when the device reply is not JSON', async () => {
    const device = await newDeviceVia(api);
    const { poll } = await parkedPoll(device);
    const rest = api('POST', `/api/plugins/rpc/twoway/${device.id}`, { method: 'raw', params: {} });
    const { id } = (await poll).json() as { id: number };
    // The device API parses every body as JSON; the service boundary is where raw text could arrive.
    await server.ctx.rpc.reply(device.id, id, 'not json');
    const response = await rest;
    expect(response.status).toBe(406);
    expect(response.json()).toMatchObject({ status: 406 });
  });

  it('answers 400 for a body without params or method or a bad device id, 404 for a bad direction, and ThingsBoard\'s text for an unknown device', async () => {
    const device = await newDeviceVia(api);
    expect((await api('POST', `/api/plugins/rpc/twoway/${device.id}`, { method: 'x' })).status).toBe(400);
    expect((await api('POST', `/api/plugins/rpc/twoway/${device.id}`, { params: {} })).status).toBe(400);
    expect((await api('POST', `/api/plugins/rpc/twoway/${device.id}`, { method: 'x', params: {}, timeout: -1 })).status).toBe(400);
    // No such path in ThingsBoard either (oneway and twoway are separate mappings).
    const auth = { 'x-authorization': `Bearer ${await loginAs(server)}` };
    expect((await call(server.httpUrl, 'POST', `/api/plugins/rpc/sideways/${device.id}`, { method: 'x', params: {} }, auth)).status).toBe(404);
    expect((await api('POST', '/api/rpc/twoway/42', { method: 'x', params: {} })).status).toBe(400);
    for (const path of ['/api/rpc/twoway', '/api/rpc/oneway', '/api/plugins/rpc/twoway', '/api/plugins/rpc/oneway']) {
      const missing = await api('POST', `${path}/${UNKNOWN}`, { method: 'x', params: {} });
      expect(missing.status).toBe(404);
      expect(missing.text).toBe("Device with requested id wasn't found!");
    }
  });
});

describe('persistent RPC', () => {
  const status = async (rpcId: string) => ((await api('GET', `/api/rpc/persistent/${rpcId}`)).json() as { status: string }).status;

  it('answers {rpcId} at once and moves QUEUED -> DELIVERED -> SUCCESSFUL, keeping the response', async () => {
    const device = await newDeviceVia(api);
    const res = await api('POST', `/api/rpc/twoway/${device.id}`, { method: 'getState', params: { deep: true }, persistent: true, timeout: 60_000 });
    expect(res.status).toBe(200);
    const { rpcId } = res.json() as { rpcId: string };
    const queued = (await api('GET', `/api/rpc/persistent/${rpcId}`)).json();
    expect(queued).toMatchObject({
      id: { entityType: 'RPC', id: rpcId }, deviceId: { entityType: 'DEVICE', id: device.id }, status: 'QUEUED',
      request: { id: rpcId, oneway: false, body: { method: 'getState', params: '{"deep":true}' }, persisted: true },
      response: null,
    });
    const { id } = (await pollRpc(device)).json() as { id: number };
    await vi.waitFor(async () => expect(await status(rpcId)).toBe('DELIVERED'), { interval: 10 });
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/rpc/${id}`, { state: 'idle' });
    await vi.waitFor(async () => expect(await status(rpcId)).toBe('SUCCESSFUL'), { interval: 10 });
    expect((await api('GET', `/api/rpc/persistent/${rpcId}`)).json()).toMatchObject({ response: { state: 'idle' } });
  });

  it('ends a one-way command DELIVERED on delivery, and an unanswered or undelivered one EXPIRED (as ThingsBoard saves both)', async () => {
    const device = await newDeviceVia(api);
    const send = async (direction: string, body: object) =>
      ((await api('POST', `/api/rpc/${direction}/${device.id}`, { params: {}, persistent: true, ...body })).json() as { rpcId: string }).rpcId;
    const oneway = await send('oneway', { method: 'blink', timeout: 60_000 });
    await pollRpc(device);
    await vi.waitFor(async () => expect(await status(oneway)).toBe('DELIVERED'), { interval: 10 });

    const unanswered = await send('twoway', { method: 'slow', timeout: 300 });
    await pollRpc(device);
    await vi.waitFor(async () => expect(await status(unanswered)).toBe('EXPIRED'), { interval: 10 });

    const undelivered = await send('twoway', { method: 'lost', expirationTime: Date.now() + 200 });
    await vi.waitFor(async () => expect(await status(undelivered)).toBe('EXPIRED'), { interval: 10 });

    // A timeout beyond Node's timer range is capped, not fired at once.
    const distant = await send('twoway', { method: 'later', timeout: 1e12 });
    const stored = (await api('GET', `/api/rpc/persistent/${distant}`)).json() as { status: string; expirationTime: number };
    expect(stored.status).toBe('QUEUED');
    expect(stored.expirationTime).toBeLessThanOrEqual(Date.now() + 2 ** 31);
  });

  it('lists a device\'s persistent commands newest first, by status, and deletes one', async () => {
    const device = await newDeviceVia(api);
    const ids: string[] = [];
    for (const method of ['a', 'b', 'c']) {
      ids.push(((await api('POST', `/api/rpc/oneway/${device.id}`, { method, params: {}, persistent: true, timeout: 60_000 })).json() as { rpcId: string }).rpcId);
    }
    const page = (await api('GET', `/api/rpc/persistent/device/${device.id}?pageSize=2&page=0`)).json() as { data: { id: { id: string } }[]; totalElements: number; hasNext: boolean };
    expect(page.totalElements).toBe(3);
    expect(page.hasNext).toBe(true);
    expect(page.data.map((r) => r.id.id)).toEqual([ids[2], ids[1]]);
    const queued = (await api('GET', `/api/rpc/persistent/device/${device.id}?pageSize=10&rpcStatus=QUEUED`)).json() as { totalElements: number };
    expect(queued.totalElements).toBe(3);
    expect((await api('GET', `/api/rpc/persistent/device/${device.id}?pageSize=10&rpcStatus=BOGUS`)).status).toBe(400);
    expect((await api('GET', `/api/rpc/persistent/device/${device.id}`)).status).toBe(400);

    expect((await api('DELETE', `/api/rpc/persistent/${ids[0]}`)).status).toBe(200);
    expect((await api('GET', `/api/rpc/persistent/${ids[0]}`)).status).toBe(404);
    expect((await api('DELETE', `/api/rpc/persistent/${ids[0]}`)).status).toBe(404);
    // The deleted command is never delivered: the next poll gets the one after it.
    expect(((await pollRpc(device)).json() as { method: string }).method).toBe('b');
    expect((await api('GET', `/api/rpc/persistent/device/${UNKNOWN}?pageSize=10`)).status).toBe(404);
  });

  it('pages without an upper bound on pageSize, answers an empty page past the end, sorts, and refuses rpcStatus=DELETED', async () => {
    const device = await newDeviceVia(api);
    const ids: string[] = [];
    for (const method of ['a', 'b', 'c']) {
      ids.push(((await api('POST', `/api/rpc/twoway/${device.id}`, { method, params: {}, persistent: true, timeout: 60_000 })).json() as { rpcId: string }).rpcId);
    }
    type RpcPage = { data: { id: { id: string }; request: { body: { method: string } } }[]; totalPages: number; totalElements: number; hasNext: boolean };
    const list = async (query: string) => (await api('GET', `/api/rpc/persistent/device/${device.id}?${query}`)).json() as RpcPage;
    const all = await list('pageSize=2147483647&page=0');
    expect(all).toMatchObject({ totalElements: 3, totalPages: 1, hasNext: false });
    expect(all.data.map((r) => r.id.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(await list('pageSize=2&page=7')).toEqual({ data: [], totalPages: 2, totalElements: 3, hasNext: false });
    const ascending = await list('pageSize=2&page=1&sortProperty=createdTime&sortOrder=ASC');
    expect(ascending.data.map((r) => r.request.body.method)).toEqual(['c']);
    const deleted = await api('GET', `/api/rpc/persistent/device/${device.id}?pageSize=10&rpcStatus=DELETED`);
    expect(deleted.status).toBe(400);
    expect(deleted.json()).toMatchObject({ status: 400, message: 'RpcStatus: DELETED' });
    expect((await api('GET', `/api/rpc/persistent/device/${device.id}?pageSize=10&sortProperty=method`)).status).toBe(400);
  });
});
