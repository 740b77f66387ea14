// Retention (store/sqlite-retention.ts): values past their TTL are deleted by the cleanup, in steps,
// over real sockets against a real file: the server's TTL (dhi serve --ttl) by each value's
// timestamp, a TTL given with a write (POST .../timeseries/{scope}/{ttl}) as ThingsBoard's Cassandra
// store counts it, and latest values stay. The store runs a pass every 20 ms here (10 s in dhi serve).
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSqliteStore } from '../store/sqlite.js';
import { call, startTestServer, stopTestServer, tempDir, type TestServer } from './helpers.js';
import { adminApi, newDeviceVia, type Api, type DeviceRef } from './control-helpers.js';

const HOUR = 3_600_000;
let server: TestServer | undefined;
afterEach(async () => {
  if (server) await stopTestServer(server);
  server = undefined;
});

async function serverWithTtl(ttlSeconds: number): Promise<{ api: Api; base: string; device: DeviceRef }> {
  const dir = tempDir();
  const store = createSqliteStore(join(dir, 'dhi.db'), { ttlSeconds, retentionIntervalMs: 20 });
  server = await startTestServer({ ttlSeconds }, dir, { store });
  const api = await adminApi(server);
  return { api, base: server.httpUrl, device: await newDeviceVia(api) };
}

/** The timestamps of a key's values, oldest first. */
async function stored(api: Api, deviceId: string, key: string): Promise<number[]> {
  const res = await api('GET', `/api/plugins/telemetry/DEVICE/${deviceId}/values/timeseries?keys=${key}&startTs=0&endTs=${Date.now() + HOUR}&limit=100000&orderBy=ASC`);
  expect(res.status).toBe(200);
  return ((res.json() as Record<string, { ts: number }[]>)[key] ?? []).map((v) => v.ts);
}

const latest = async (api: Api, deviceId: string, key: string) =>
  ((await api('GET', `/api/plugins/telemetry/DEVICE/${deviceId}/values/timeseries?keys=${key}`)).json() as Record<string, { ts: number }[]>)[key];

/** Waits (bounded) until the cleanup has taken what it should. */
const removed = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

describe('retention', () => {
  it('deletes the values older than the server TTL, step by step, and keeps the newer ones and the latest values', async () => {
    const { api, base, device } = await serverWithTtl(3600);
    const now = Date.now();
    // 12,000 values of one series past the TTL: more than one step deletes (5,000).
    const old = Array.from({ length: 12_000 }, (_, i) => ({ ts: now - 3 * HOUR + i, values: { pulse: i } }));
    expect((await call(base, 'POST', `/api/v1/${device.token}/telemetry`, old)).status).toBe(200);
    const recent = [now - HOUR / 2, now - 1000];
    expect((await call(base, 'POST', `/api/v1/${device.token}/telemetry`, recent.map((ts) => ({ ts, values: { pulse: 1, temp: 20 } })))).status).toBe(200);
    // A key whose only value is past the TTL.
    expect((await call(base, 'POST', `/api/v1/${device.token}/telemetry`, { ts: now - 2 * HOUR, values: { gone: true } })).status).toBe(200);

    await removed(async () => {
      expect(await stored(api, device.id, 'pulse')).toEqual(recent);
      expect(await stored(api, device.id, 'gone')).toEqual([]);
    });
    expect(await stored(api, device.id, 'temp')).toEqual(recent);
    // A fold of the whole telemetry log (a read across devices) brings none of them back.
    await server!.ctx.store.profileTelemetryKeys(null);
    expect(await stored(api, device.id, 'pulse')).toEqual(recent);
    // Latest values stay, as in ThingsBoard.
    expect(await latest(api, device.id, 'gone')).toEqual([{ ts: now - 2 * HOUR, value: 'true' }]);
  });

  it('deletes values written with a TTL of their own once it has passed since their timestamp; 0 keeps them without a server TTL', async () => {
    const { api, base, device } = await serverWithTtl(0);
    const now = Date.now();
    const save = (ttl: number, ts: number, values: object) => api('POST', `/api/plugins/telemetry/DEVICE/${device.id}/timeseries/ANY/${ttl}`, { ts, values });
    expect((await save(60, now - 120_000, { short: 1 })).status).toBe(200);
    expect((await save(60, now, { short: 2 })).status).toBe(200);
    expect((await save(0, now - 10 * HOUR, { kept: 1 })).status).toBe(200);
    await removed(async () => expect(await stored(api, device.id, 'short')).toEqual([now]));
    expect(await stored(api, device.id, 'kept')).toEqual([now - 10 * HOUR]);
    // Device telemetry meanwhile goes to the telemetry log; its fold brings back no expired value.
    expect((await call(base, 'POST', `/api/v1/${device.token}/telemetry`, { ts: now + 1, values: { other: 1 } })).status).toBe(200);
    await server!.ctx.store.profileTelemetryKeys(null);
    expect(await stored(api, device.id, 'short')).toEqual([now]);
  });

  it('bounds a TTL given with a write by the server TTL, as ThingsBoard computes it', async () => {
    const { api, device } = await serverWithTtl(3600);
    const now = Date.now();
    const save = (ttl: number, ts: number, values: object) => api('POST', `/api/plugins/telemetry/DEVICE/${device.id}/timeseries/ANY/${ttl}`, { ts, values });
    // Two hours old with a TTL of a day: the server's hour counts. Two minutes old with a minute: gone.
    expect((await save(86_400, now - 2 * HOUR, { long: 1 })).status).toBe(200);
    expect((await save(60, now - 120_000, { short: 1 })).status).toBe(200);
    expect((await save(60, now, { short: 2 })).status).toBe(200);
    await removed(async () => {
      expect(await stored(api, device.id, 'long')).toEqual([]);
      expect(await stored(api, device.id, 'short')).toEqual([now]);
    });
  });
});
