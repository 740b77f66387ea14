// Which server-side RPCs reach the store, over real sockets against a real SQLite file: as in
// ThingsBoard (DeviceActorMessageProcessor stores a request only when it is persisted), a
// non-persistent command lives in memory and leaves nothing behind, a persistent one is stored with
// its statuses, both share the device's request ids, and ended persistent ones go after --rpc-ttl.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSqliteStore } from '../store/sqlite.js';
import { migrate } from '../store/sqlite-schema.js';
import { call, startTestServer, stopTestServer, tempDir, type TestServer } from './helpers.js';
import { adminApi, newDeviceVia, openPolls, type Api, type DeviceRef } from './control-helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  if (server) await stopTestServer(server);
  server = undefined;
});

async function serverAt(dir = tempDir(), rpcTtlSeconds = 0): Promise<{ s: TestServer; api: Api; device: DeviceRef }> {
  const store = createSqliteStore(join(dir, 'dhi.db'), { rpcTtlSeconds, retentionIntervalMs: 20 });
  const s = (server = await startTestServer({ serverRpcMinTimeoutMs: 0, rpcTtlSeconds }, dir, { store }));
  const api = await adminApi(s);
  return { s, api, device: await newDeviceVia(api) };
}

/** The rows of the rpc table, read from the file by a connection of its own. */
function rpcRows(s: TestServer): { request_id: number; persistent: number; status: string }[] {
  const file = new Database(s.dbPath, { readonly: true });
  try {
    return file.prepare('SELECT request_id, persistent, status FROM rpc ORDER BY request_id').all() as never;
  } finally {
    file.close();
  }
}

/** The device takes one command from its RPC poll and, given `answer`, replies to it. */
async function deviceTakes(s: TestServer, device: DeviceRef, answer?: (id: number) => object): Promise<{ id: number; method: string }> {
  const command = await call(s.httpUrl, 'GET', `/api/v1/${device.token}/rpc?timeout=20000`);
  expect(command.status).toBe(200);
  const taken = command.json() as { id: number; method: string };
  if (answer) expect((await call(s.httpUrl, 'POST', `/api/v1/${device.token}/rpc/${taken.id}`, answer(taken.id))).status).toBe(200);
  return taken;
}

describe('non-persistent RPC', () => {
  it('answers every caller of 40 round trips (two-way and one-way, v1 and v2) and leaves the rpc table empty', async () => {
    const { s, api, device } = await serverAt();
    for (let i = 0; i < 40; i++) {
      const [prefix, direction] = [i % 2 ? '/api/plugins/rpc' : '/api/rpc', i % 4 < 2 ? 'twoway' : 'oneway'];
      const poll = deviceTakes(s, device, direction === 'twoway' ? (id) => ({ echo: i, id }) : undefined);
      await openPolls(s, 'rpc', 1);
      const rest = api('POST', `${prefix}/${direction}/${device.id}`, { method: `m${i}`, params: { i } });
      const taken = await poll;
      expect(taken).toMatchObject({ id: i, method: `m${i}` });
      const answer = await rest;
      expect(answer.status).toBe(200);
      if (direction === 'twoway') expect(answer.json()).toEqual({ echo: i, id: i });
      else expect(answer.text).toBe('');
    }
    expect(rpcRows(s)).toEqual([]);
    expect(s.ctx.rpc.size()).toEqual({ queued: 0, awaiting: 0 });
  });

  it('ends unanswered and undelivered commands with their answers (408, 409) and stores none of them', async () => {
    const { s, api, device } = await serverAt();
    const poll = deviceTakes(s, device);
    await openPolls(s, 'rpc', 1);
    const unanswered = api('POST', `/api/plugins/rpc/twoway/${device.id}`, { method: 'slow', params: {}, timeout: 200 });
    await poll;
    expect((await unanswered).status).toBe(408);
    expect((await api('POST', `/api/plugins/rpc/twoway/${device.id}`, { method: 'lost', params: {}, timeout: 200 })).status).toBe(409);
    // A late reply to the ended command is dropped, not stored.
    expect((await call(s.httpUrl, 'POST', `/api/v1/${device.token}/rpc/0`, { late: true })).status).toBe(200);
    expect(rpcRows(s)).toEqual([]);
    expect(s.ctx.rpc.size()).toEqual({ queued: 0, awaiting: 0 });
  });

  it('answers a non-persistent command\'s id as ThingsBoard does an id it never stored: GET and DELETE 404, not listed', async () => {
    const { s, api, device } = await serverAt();
    const { rpc, outcome } = await s.ctx.rpc.submit(s.ctx.store.deviceById(device.id)!, {
      method: 'm', params: '{}', oneway: false, persistent: false, expirationTime: Date.now() + 20_000, retries: 0, additionalInfo: null,
    });
    for (const when of ['live', 'ended']) {
      const read = await api('GET', `/api/rpc/persistent/${rpc.id}`);
      expect(read.status, when).toBe(404);
      expect(read.json()).toMatchObject({ status: 404, errorCode: 32, message: `Rpc with id [${rpc.id}] is not found` });
      expect((await api('DELETE', `/api/rpc/persistent/${rpc.id}`)).status, when).toBe(404);
      expect((await api('GET', `/api/rpc/persistent/device/${device.id}?pageSize=10&page=0`)).json(), when).toMatchObject({ data: [], totalElements: 0 });
      if (when === 'live') await deviceTakes(s, device, () => ({ done: true }));
    }
    // The 404s did not touch the live command: its caller had the device's reply.
    expect(await outcome).toEqual({ kind: 'replied', response: '{"done":true}' });
  });
});

describe('persistent and non-persistent RPC together', () => {
  it('numbers both on one per-device sequence, stores only the persistent ones with their statuses, and goes on after a restart', async () => {
    const dir = tempDir();
    const first = await serverAt(dir);
    const { device } = first;
    let { s, api } = first;
    const ids: number[] = [];
    const rpcIds: string[] = [];
    for (const persistent of [false, true, false, true]) {
      const poll = deviceTakes(s, device, (id) => ({ id }));
      await openPolls(s, 'rpc', 1);
      const rest = await api('POST', `/api/rpc/twoway/${device.id}`, { method: 'm', params: {}, persistent, timeout: 20_000 });
      ids.push((await poll).id);
      if (persistent) rpcIds.push((rest.json() as { rpcId: string }).rpcId);
      else expect(rest.json()).toEqual({ id: ids.at(-1) });
    }
    expect(ids).toEqual([0, 1, 2, 3]);
    await vi.waitFor(() => expect(rpcRows(s)).toEqual([
      { request_id: 1, persistent: 1, status: 'SUCCESSFUL' },
      { request_id: 3, persistent: 1, status: 'SUCCESSFUL' },
    ]), { interval: 5 });
    expect((await api('GET', `/api/rpc/persistent/${rpcIds[0]}`)).json()).toMatchObject({ status: 'SUCCESSFUL', response: { id: 1 } });
    expect(((await api('GET', `/api/rpc/persistent/device/${device.id}?pageSize=10&page=0`)).json() as { totalElements: number }).totalElements).toBe(2);

    // A non-persistent command is the last one; after a clean restart the next id follows it.
    const last = deviceTakes(s, device, (id) => ({ id }));
    await openPolls(s, 'rpc', 1);
    expect((await api('POST', `/api/rpc/twoway/${device.id}`, { method: 'm', params: {}, timeout: 20_000 })).json()).toEqual({ id: 4 });
    await last;
    await stopTestServer(s, false);
    server = undefined;
    ({ s, api } = await serverAt(dir));
    const next = deviceTakes(s, device);
    await openPolls(s, 'rpc', 1);
    const queued = await api('POST', `/api/rpc/oneway/${device.id}`, { method: 'after', params: {}, persistent: true, timeout: 20_000 });
    expect(queued.status).toBe(200);
    expect(await next).toMatchObject({ id: 5, method: 'after' });
  });

  it('drops the non-persistent rows an earlier version stored when the database is opened, and keeps the persistent ones', async () => {
    const path = join(tempDir(), 'old.db');
    const old = new Database(path);
    migrate(old, 'profile-1', 1, 9);
    old.prepare(`INSERT INTO devices (id, name, type, token, credentials_type, profile_id, created_time)
      VALUES ('dev-a', 'a', 'default', 'token-a', 'ACCESS_TOKEN', 'profile-1', 0)`).run();
    const row = old.prepare(`INSERT INTO rpc (id, device_id, request_id, method, params, oneway, persistent, status, expiration_time, created_time)
      VALUES (?, 'dev-a', ?, 'm', '{}', 0, ?, 'SUCCESSFUL', 1, 1)`);
    for (let i = 0; i < 4; i++) row.run(`rpc-${i}`, i, i === 2 ? 1 : 0);
    old.close();
    const store = createSqliteStore(path);
    try {
      expect(store.rpcById('rpc-2')).toMatchObject({ requestId: 2, persistent: true });
      for (const id of ['rpc-0', 'rpc-1', 'rpc-3']) expect(store.rpcById(id)).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

describe('persistent RPC retention (dhi serve --rpc-ttl)', () => {
  it('deletes ended persistent commands created before the TTL, and keeps live ones and newer ones', async () => {
    const { s, api, device } = await serverAt(tempDir(), 3600);
    const now = Date.now();
    const twoHoursAgo = now - 7_200_000;
    // Commands created two hours ago, as the store holds them: ended ones and live ones.
    const old = {
      answered: { status: 'SUCCESSFUL', oneway: false, expirationTime: twoHoursAgo + 60_000 },
      deliveredOneway: { status: 'DELIVERED', oneway: true, expirationTime: now + 60_000 },
      expired: { status: 'EXPIRED', oneway: false, expirationTime: twoHoursAgo + 60_000 },
      queuedPastExpiry: { status: 'QUEUED', oneway: true, expirationTime: now - 1000 },
      queuedLive: { status: 'QUEUED', oneway: true, expirationTime: now + 60_000 },
      awaitingReply: { status: 'DELIVERED', oneway: false, expirationTime: now + 60_000 },
    } as const;
    const ids = Object.fromEntries(Object.keys(old).map((name) => [name, randomUUID()]));
    await s.ctx.store.write(() => Object.entries(old).forEach(([name, fields], i) => s.ctx.store.insertRpc({
      id: ids[name], deviceId: device.id, requestId: 1000 + i, method: name, params: '{}', persistent: true,
      createdTime: twoHoursAgo, response: null, retries: 0, additionalInfo: null, ...fields,
    })));
    // And one answered just now, through the API.
    const poll = deviceTakes(s, device, () => ({ ok: true }));
    await openPolls(s, 'rpc', 1);
    const fresh = ((await api('POST', `/api/rpc/twoway/${device.id}`, { method: 'm', params: {}, persistent: true, timeout: 60_000 })).json() as { rpcId: string }).rpcId;
    await poll;
    await vi.waitFor(async () => expect((await api('GET', `/api/rpc/persistent/${fresh}`)).json()).toMatchObject({ status: 'SUCCESSFUL' }), { interval: 5 });

    const status = async (rpcId: string) => (await api('GET', `/api/rpc/persistent/${rpcId}`)).status;
    await vi.waitFor(async () => {
      for (const name of ['answered', 'deliveredOneway', 'expired', 'queuedPastExpiry']) expect(await status(ids[name]), name).toBe(404);
    }, { timeout: 10_000, interval: 25 });
    expect(await status(ids.queuedLive)).toBe(200);
    expect(await status(ids.awaitingReply)).toBe(200);
    expect(await status(fresh)).toBe(200);
    expect(rpcRows(s)).toHaveLength(3);
  });
});
