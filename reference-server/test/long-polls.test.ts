import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createDevice, startTestServer, stopTestServer, type TestServer } from './helpers.js';
import type { DeviceRecord } from '../store/types.js';
import type { ServerRpcInput } from '../rpc-service.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clientRpcTimeoutMs: 300 });
});
afterAll(async () => {
  await stopTestServer(server);
});

const poll = (device: DeviceRecord, what: 'attributes/updates' | 'rpc', timeout: number, signal?: AbortSignal) =>
  call(server.httpUrl, 'GET', `/api/v1/${device.token}/${what}?timeout=${timeout}`, undefined, {}, signal);

/** Resolves once the server holds `n` open polls of that kind (observed, not timed). */
const openPolls = (kind: 'attributes' | 'rpc', n: number) =>
  vi.waitFor(() => expect(server.ctx.polls.size()[kind]).toBe(n), { timeout: 5000, interval: 5 });

const command = (overrides: Partial<ServerRpcInput> = {}): ServerRpcInput => ({
  method: 'setGpio', params: '{"pin":23}', oneway: false, persistent: false,
  expirationTime: Date.now() + 10_000, retries: 0, additionalInfo: null, ...overrides,
});

describe('operation 4: shared attribute updates', () => {
  it('times out with 408 and an empty body, leaving no waiter or timer behind', async () => {
    const device = await createDevice(server.ctx);
    const res = await poll(device, 'attributes/updates', 50);
    expect(res.status).toBe(408);
    expect(res.text).toBe('');
    expect(server.ctx.polls.size()).toMatchObject({ attributes: 0, timers: 0 });
  });

  it('delivers a shared change flat to every open poll of the device, and not to another device', async () => {
    const device = await createDevice(server.ctx);
    const other = await createDevice(server.ctx);
    const first = poll(device, 'attributes/updates', 10_000);
    const second = poll(device, 'attributes/updates', 10_000);
    const foreign = poll(other, 'attributes/updates', 300);
    await openPolls('attributes', 3);
    await server.ctx.attributes.save(device.id, 'SHARED_SCOPE', [{ key: 'mode', type: 'STRING', value: 'eco', ts: 1 }]);
    for (const res of await Promise.all([first, second])) {
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ mode: 'eco' });
    }
    expect((await foreign).status).toBe(408);
  });

  it('delivers removed keys as {"deleted": [...]}', async () => {
    const device = await createDevice(server.ctx);
    await server.ctx.attributes.save(device.id, 'SHARED_SCOPE', [{ key: 'gone', type: 'LONG', value: 1, ts: 1 }]);
    const pending = poll(device, 'attributes/updates', 10_000);
    await openPolls('attributes', 1);
    await server.ctx.attributes.remove(device.id, 'SHARED_SCOPE', ['gone', 'never-there']);
    expect((await pending).json()).toEqual({ deleted: ['gone'] });
  });

  it('frees the waiter and its timer as soon as the client disconnects', async () => {
    const device = await createDevice(server.ctx);
    const abort = new AbortController();
    const pending = poll(device, 'attributes/updates', 60_000, abort.signal).catch((e: Error) => e);
    await openPolls('attributes', 1);
    expect(server.ctx.polls.size().timers).toBe(1);
    abort.abort();
    await pending;
    await openPolls('attributes', 0);
    expect(server.ctx.polls.size().timers).toBe(0);
  });
});

describe('operations 5 and 6: server-side RPC', () => {
  it('delivers a command to the open poll and hands the reply to the issuer', async () => {
    const device = await createDevice(server.ctx);
    const pending = poll(device, 'rpc', 10_000);
    await openPolls('rpc', 1);
    const { rpc, outcome } = await server.ctx.rpc.submit(device, command());
    const delivered = await pending;
    expect(delivered.status).toBe(200);
    expect(delivered.json()).toEqual({ id: rpc.requestId, method: 'setGpio', params: { pin: 23 } });
    const ack = await call(server.httpUrl, 'POST', `/api/v1/${device.token}/rpc/${rpc.requestId}`, { result: 'ok' });
    expect(ack.status).toBe(200);
    expect(ack.text).toBe('');
    expect(await outcome).toEqual({ kind: 'replied', response: '{"result":"ok"}' });
    // Non-persistent: the command ended in memory, and nothing of it was stored (rpc-service.ts).
    expect(server.ctx.rpc.size()).toEqual({ queued: 0, awaiting: 0 });
    expect(server.ctx.store.rpcById(rpc.id)).toBeUndefined();
  });

  it('answers the next poll at once with a command issued while no poll was open', async () => {
    const device = await createDevice(server.ctx);
    const { rpc } = await server.ctx.rpc.submit(device, command({ method: 'reboot', oneway: true }));
    // The timeout is far longer than the test: only immediate delivery lets this resolve.
    const res = await poll(device, 'rpc', 60_000);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ id: rpc.requestId, method: 'reboot' });
  });

  it('gives one command to exactly one of two open polls', async () => {
    const device = await createDevice(server.ctx);
    const polls = [poll(device, 'rpc', 400), poll(device, 'rpc', 400)];
    await openPolls('rpc', 2);
    await server.ctx.rpc.submit(device, command());
    const statuses = (await Promise.all(polls)).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 408]);
  });

  it('numbers commands per device with integers that never repeat', async () => {
    const device = await createDevice(server.ctx);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await server.ctx.rpc.submit(device, command({ oneway: true }))).rpc.requestId);
    expect(ids).toEqual([0, 1, 2]);
  });

  it('ends a never-delivered command as expired and a delivered, unanswered one as timed out', async () => {
    const device = await createDevice(server.ctx);
    const never = await server.ctx.rpc.submit(device, command({ expirationTime: Date.now() + 50 }));
    expect(await never.outcome).toEqual({ kind: 'expired' });
    const pending = poll(device, 'rpc', 10_000);
    await openPolls('rpc', 1);
    const unanswered = await server.ctx.rpc.submit(device, command({ expirationTime: Date.now() + 200 }));
    expect((await pending).status).toBe(200);
    expect(await unanswered.outcome).toEqual({ kind: 'timeout' });
  });

  it('accepts and drops a reply to an unknown id', async () => {
    const device = await createDevice(server.ctx);
    const res = await call(server.httpUrl, 'POST', `/api/v1/${device.token}/rpc/9999`, { result: 1 });
    expect(res.status).toBe(200);
  });
});

describe('operation 7: device-side RPC', () => {
  it('answers the built-in rules and rules set at runtime', async () => {
    const device = await createDevice(server.ctx);
    const rpc = (body: object) => call(server.httpUrl, 'POST', `/api/v1/${device.token}/rpc`, body);
    const time = await rpc({ method: 'getCurrentTime', params: {} });
    expect(time.status).toBe(200);
    expect((time.json() as { time: number }).time).toBeGreaterThan(1_600_000_000_000);
    expect((await rpc({ method: 'echo', params: { a: [1] } })).json()).toEqual({ a: [1] });
    await server.ctx.store.write(() => server.ctx.store.setRule({ method: 'getConfig', type: 'static', reply: 'fixed' }));
    expect((await rpc({ method: 'getConfig', params: {} })).json()).toBe('fixed');
  });

  it('answers 503 with the error body when no rule replies in time', async () => {
    const device = await createDevice(server.ctx);
    const res = await call(server.httpUrl, 'POST', `/api/v1/${device.token}/rpc`, { method: 'nobody', params: {} });
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({ status: 503, errorCode: 2 });
    expect(server.ctx.polls.size().clientRpc).toBe(0);
  });

  it('rejects a request without params with 400', async () => {
    const device = await createDevice(server.ctx);
    const res = await call(server.httpUrl, 'POST', `/api/v1/${device.token}/rpc`, { method: 'echo' });
    expect(res.status).toBe(400);
  });
});

describe('the timeout parameter binds as Spring binds a Java long', () => {
  it.each(['1e308', '1.5', '1e3', 'abc', '9223372036854775808', '-9223372036854775809', '0x', '+-5', '0x-5'])('answers 400 with the error body for timeout=%s, on both polls', async (timeout) => {
    const device = await createDevice(server.ctx);
    for (const what of ['attributes/updates', 'rpc']) {
      const res = await call(server.httpUrl, 'GET', `/api/v1/${device.token}/${what}?timeout=${encodeURIComponent(timeout)}`);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, errorCode: 31, message: expect.stringContaining('timeout') });
    }
    expect(server.ctx.polls.size()).toMatchObject({ attributes: 0, rpc: 0, timers: 0 });
  });

  it.each(['0x32', '#32', ' 5 0 ', '+50', '-1', '-9223372036854775808'])('takes timeout=%s (hex, spaces and signs bind; negative ends the poll at once) and answers 408', async (timeout) => {
    const device = await createDevice(server.ctx);
    const res = await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes/updates?timeout=${encodeURIComponent(timeout)}`);
    expect(res.status).toBe(408);
    expect(res.text).toBe('');
  });
});
