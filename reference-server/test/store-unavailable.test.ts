// A full store is a condition, not a bug: over real sockets, against a real SQLite file capped with
// max_page_count (SQLITE_FULL without a full disk), every kind of write is answered 503 with
// ThingsBoard's error body and Retry-After, nothing of a refused write is stored, reads go on, the
// server logs one warning when writes start failing and one when they go through again, and writes
// succeed once there is room, without a restart.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { call, startTestServer, stopTestServer, storeWithRoomFor, tempDir, type Response, type TestServer } from './helpers.js';
import { adminApi, newDeviceVia, type Api, type DeviceRef } from './control-helpers.js';

/** Room for a few dozen big telemetry values (4 KB pages) beyond a fresh store. */
const SPARE_PAGES = 60;
const BIG = 'x'.repeat(6000);
const SMALL = 'y'.repeat(800);
/** More writes of a kind than the spare pages could take. */
const MAX_WRITES = 300;

let server: TestServer | undefined;
afterEach(async () => {
  if (server) await stopTestServer(server);
  server = undefined;
});

/** A server on a store with SPARE_PAGES pages of room, its admin client, a device, and its warnings. */
async function fullableServer(): Promise<{ server: TestServer; api: Api; device: DeviceRef; warnings: string[] }> {
  const dir = tempDir();
  const store = await storeWithRoomFor(join(dir, 'dhi.db'), SPARE_PAGES);
  const warnings: string[] = [];
  const logStream = { write: (line: string) => void warnings.push((JSON.parse(line) as { msg: string }).msg) };
  server = await startTestServer({ logLevel: 'warn' }, dir, { store, logStream });
  const api = await adminApi(server);
  return { server, api, device: await newDeviceVia(api), warnings };
}

function expectRefused(res: Response): void {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.json()).toMatchObject({
    status: 503, errorCode: 46,
    message: 'The store cannot take writes: the database or its disk is full (SQLITE_FULL). Nothing of this request was stored; retry later',
  });
}

/** Sends write i = 0, 1, ... until one is refused: the indexes answered 200, and the one refused. */
async function untilRefused(send: (i: number) => Promise<Response>): Promise<{ acknowledged: number[]; refused: number }> {
  const acknowledged: number[] = [];
  for (let i = 0; i < MAX_WRITES; i++) {
    const res = await send(i);
    if (res.status === 503) {
      expectRefused(res);
      return { acknowledged, refused: i };
    }
    expect(res.status, res.text).toBe(200);
    acknowledged.push(i);
  }
  throw new Error(`${MAX_WRITES} writes went in: the store never filled up`);
}

/**
 * Device telemetry until the store has no room for one more message: waves of 8 at once (batches on
 * the telemetry worker) until a whole wave is refused, then one at a time until one is.
 */
async function fillWithTelemetry(base: string, token: string): Promise<{ acknowledged: number[]; refused: number[] }> {
  const acknowledged: number[] = [];
  const refused: number[] = [];
  const send = (ts: number) => call(base, 'POST', `/api/v1/${token}/telemetry`, { ts, values: { pad: BIG } });
  let ts = 1;
  for (let full = false; !full && ts < MAX_WRITES;) {
    const wave = Array.from({ length: 8 }, () => ts++);
    const answers = await Promise.all(wave.map(send));
    answers.forEach((res, i) => {
      if (res.status === 503) expectRefused(res);
      else expect(res.status, res.text).toBe(200);
      (res.status === 200 ? acknowledged : refused).push(wave[i]);
    });
    full = answers.every((res) => res.status === 503);
  }
  const singles = await untilRefused((i) => send(ts + i));
  acknowledged.push(...singles.acknowledged.map((i) => ts + i));
  refused.push(ts + singles.refused);
  return { acknowledged, refused };
}

const timeseries = async (api: Api, deviceId: string, key: string): Promise<number[]> => {
  const res = await api('GET', `/api/plugins/telemetry/DEVICE/${deviceId}/values/timeseries?keys=${key}&startTs=0&endTs=${MAX_WRITES}&limit=1000&orderBy=ASC`);
  expect(res.status).toBe(200);
  return ((res.json() as Record<string, { ts: number }[]>)[key] ?? []).map((v) => v.ts);
};

describe('a full store', () => {
  it('answers every kind of write 503 with Retry-After, stores none of them, and keeps every acknowledged one readable', async () => {
    const { server: s, api, device } = await fullableServer();
    const telemetry = await fillWithTelemetry(s.httpUrl, device.token);

    // Each kind fills the pages its table still has free, then is refused.
    const clientAttributes = await untilRefused((i) => call(s.httpUrl, 'POST', `/api/v1/${device.token}/attributes`, { [`client${i}`]: SMALL }));
    const serverAttributes = await untilRefused((i) => api('POST', `/api/plugins/telemetry/DEVICE/${device.id}/attributes/SERVER_SCOPE`, { [`server${i}`]: SMALL }));
    const devices = await untilRefused((i) => api('POST', '/api/device', { name: `full-${i}`, type: 'default', label: SMALL }));
    const saved = await untilRefused((i) => api('POST', `/api/plugins/telemetry/DEVICE/${device.id}/timeseries/ANY`, { ts: i, values: { saved: BIG } }));

    // Reads go on, and show exactly what was acknowledged.
    expect(await timeseries(api, device.id, 'pad')).toEqual(telemetry.acknowledged);
    expect(await timeseries(api, device.id, 'saved')).toEqual(saved.acknowledged);
    const client = await call(s.httpUrl, 'GET', `/api/v1/${device.token}/attributes`);
    expect(Object.keys((client.json() as { client: object }).client).sort()).toEqual(clientAttributes.acknowledged.map((i) => `client${i}`).sort());
    const server = await api('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes/SERVER_SCOPE`);
    // `active`: the device state's, saved when the device was created (device-state.ts).
    expect((server.json() as { key: string }[]).map((a) => a.key).sort()).toEqual(['active', ...serverAttributes.acknowledged.map((i) => `server${i}`)].sort());
    for (const i of [...devices.acknowledged, devices.refused]) {
      const found = await api('GET', `/api/tenant/device?deviceName=full-${i}`);
      expect(found.status, `device full-${i}`).toBe(i === devices.refused ? 404 : 200);
    }
  });

  it('logs one warning when writes start failing and one when they go through again, and takes writes once there is room', async () => {
    const { server: s, api, device, warnings } = await fullableServer();
    // One at a time: every write goes in until the first refusal.
    const telemetry = await untilRefused((ts) => call(s.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { ts, values: { pad: BIG } }));
    const retry = telemetry.refused;
    // A refused write sent again, and again: refused each time, logged once.
    for (let i = 0; i < 5; i++) expectRefused(await call(s.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { ts: retry, values: { pad: BIG } }));
    expect(warnings.filter((w) => w.includes('cannot take writes'))).toEqual([
      `the store (${s.dbPath}) cannot take writes: the database or its disk is full (SQLITE_FULL); writes answer 503 until it can, reads go on`,
    ]);
    expect(warnings.filter((w) => w.includes('takes writes again'))).toEqual([]);

    // Room again (a delete frees pages inside the file), without a restart: the write goes in.
    const removed = await api('DELETE', `/api/plugins/telemetry/DEVICE/${device.id}/timeseries/delete?keys=pad&deleteAllDataForKeys=true`);
    expect(removed.status).toBe(200);
    expect(warnings.filter((w) => w.includes('takes writes again'))).toEqual([
      expect.stringMatching(new RegExp(`^the store \\(.+\\) takes writes again, after \\d+\\.\\d s and 6 refused writes$`)),
    ]);
    expect((await call(s.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { ts: retry, values: { pad: BIG } })).status).toBe(200);
    expect(await timeseries(api, device.id, 'pad')).toEqual([retry]);
    expect(warnings.filter((w) => w.includes('writes'))).toHaveLength(2);

    // On disk: the write acknowledged after the outage, nothing refused during it.
    await stopTestServer(s, false);
    server = undefined;
    const file = new Database(s.dbPath, { readonly: true });
    expect(file.prepare("SELECT ts FROM telemetry WHERE key = (SELECT id FROM telemetry_keys WHERE key = 'pad')").pluck().all()).toEqual([retry]);
    file.close();
  });

  it('keeps serving RPC while the store is full: a non-persistent round trip needs no room, a persistent reply it cannot store is refused', async () => {
    const { server: s, api, device } = await fullableServer();
    // A persistent command is stored before the store fills; the device takes it and answers afterwards.
    const persistent = await api('POST', `/api/rpc/twoway/${device.id}`, { method: 'getTemp', params: {}, persistent: true, timeout: 20_000 });
    const { rpcId } = persistent.json() as { rpcId: string };
    const command = await call(s.httpUrl, 'GET', `/api/v1/${device.token}/rpc?timeout=20000`);
    expect(command.status).toBe(200);
    await fillWithTelemetry(s.httpUrl, device.token);
    const { id } = command.json() as { id: number };
    // A reply too big for the room left (the fill leaves less than the two pages a message may need; the
    // reply needs two overflow pages): its status and response cannot be stored, and stay as they were.
    expectRefused(await call(s.httpUrl, 'POST', `/api/v1/${device.token}/rpc/${id}`, { temp: 21, log: BIG + BIG }));
    expect((await api('GET', `/api/rpc/persistent/${rpcId}`)).json()).toMatchObject({ status: 'DELIVERED', response: null });

    // A non-persistent command is never stored (as in ThingsBoard): the full store does not touch it.
    const issued = api('POST', `/api/plugins/rpc/twoway/${device.id}`, { method: 'getTemp', params: {}, timeout: 20_000 });
    const next = await call(s.httpUrl, 'GET', `/api/v1/${device.token}/rpc?timeout=20000`);
    expect(next.status).toBe(200);
    const reply = await call(s.httpUrl, 'POST', `/api/v1/${device.token}/rpc/${(next.json() as { id: number }).id}`, { temp: 21, log: BIG });
    expect(reply.status).toBe(200);
    const answer = await issued;
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ temp: 21, log: BIG });
  });
});
