// Device state over real sockets (ThingsBoard's DefaultDeviceStateService): inactive when created,
// active on a request, inactive again after the timeout (the default or the device's own, applied as
// soon as it changes), no connects or disconnects over HTTP, every device watched after a restart,
// and the same keys as telemetry with --persist-state-to-telemetry.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, startTestServer, stopTestServer, tempDir, type TestServer } from './helpers.js';
import { adminApi, newDeviceVia, openPolls, type Api } from './control-helpers.js';
import { validateConfig, ConfigError } from '../config.js';
import { newDevice } from '../device-records.js';

type Attribute = { key: string; value: unknown; lastUpdateTs: number };

let server: TestServer;
let api: Api;

beforeAll(async () => {
  server = await startTestServer();
  api = await adminApi(server);
});
afterAll(() => stopTestServer(server));

async function serverAttributes(deviceId: string): Promise<Record<string, unknown>> {
  const res = await api('GET', `/api/plugins/telemetry/DEVICE/${deviceId}/values/attributes/SERVER_SCOPE`);
  return Object.fromEntries((res.json() as Attribute[]).map((a) => [a.key, a.value]));
}

describe('device state as server attributes', () => {
  it('saves a new device inactive, makes it active on a message, and inactive again after the default timeout', async () => {
    const device = await newDeviceVia(api);
    expect(await serverAttributes(device.id)).toEqual({ active: false });

    const before = Date.now();
    expect((await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { t: 1 })).status).toBe(200);
    await server.ctx.deviceState.flush();
    const active = await serverAttributes(device.id);
    expect(active).toMatchObject({ active: true });
    expect(active.lastActivityTime).toBeGreaterThanOrEqual(before);
    expect(active.lastActivityTime).toBeLessThanOrEqual(Date.now());
    expect(active).not.toHaveProperty('inactivityAlarmTime');

    // Not yet past the 600 s default: still active.
    await server.ctx.deviceState.check(Number(active.lastActivityTime) + 599_000);
    expect(await serverAttributes(device.id)).toMatchObject({ active: true });
    const later = Number(active.lastActivityTime) + 600_000;
    await server.ctx.deviceState.check(later);
    expect(await serverAttributes(device.id)).toMatchObject({ active: false, inactivityAlarmTime: later });

    // The next message makes it active again.
    await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes`);
    await server.ctx.deviceState.flush();
    expect(await serverAttributes(device.id)).toMatchObject({ active: true });
  });

  it('takes the device\'s own inactivityTimeout server attribute over the default', async () => {
    const quick = await newDeviceVia(api);
    const slow = await newDeviceVia(api);
    await api('POST', `/api/plugins/telemetry/DEVICE/${quick.id}/attributes/SERVER_SCOPE`, { inactivityTimeout: 5000 });
    for (const device of [quick, slow]) await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { t: 1 });
    await server.ctx.deviceState.flush();
    const seen = Number((await serverAttributes(quick.id)).lastActivityTime);
    await server.ctx.deviceState.check(seen + 10_000);
    expect(await serverAttributes(quick.id)).toMatchObject({ active: false, inactivityTimeout: 5000 });
    expect(await serverAttributes(slow.id)).toMatchObject({ active: true });
  });

  it('applies a changed inactivityTimeout at once: an expired device goes inactive, a deleted timeout brings the default back', async () => {
    const device = await newDeviceVia(api);
    await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes`);
    await server.ctx.deviceState.flush();
    expect(server.ctx.deviceState.isActive(device.id)).toBe(true);
    // A timeout of 1 ms has passed already: inactive without waiting for the next check.
    await api('POST', `/api/plugins/telemetry/DEVICE/${device.id}/attributes/SERVER_SCOPE`, { inactivityTimeout: 1 });
    await vi.waitFor(() => expect(server.ctx.deviceState.isActive(device.id)).toBe(false), { timeout: 1000, interval: 5 });
    await server.ctx.deviceState.flush();
    expect(await serverAttributes(device.id)).toMatchObject({ active: false, inactivityAlarmTime: expect.any(Number) });
    // Back to the 600 s default: the last activity is recent, so the device is active again (checkAndUpdateState).
    await api('DELETE', `/api/plugins/telemetry/DEVICE/${device.id}/SERVER_SCOPE?keys=inactivityTimeout`);
    expect(server.ctx.deviceState.isActive(device.id)).toBe(true);
    await server.ctx.deviceState.flush();
    expect(await serverAttributes(device.id)).toMatchObject({ active: true });
  });

  it('takes no request for a connect or a disconnect: long polls and reads are activity, as over ThingsBoard\'s HTTP transport', async () => {
    const device = await newDeviceVia(api);
    const poll = call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes/updates?timeout=20000`);
    await openPolls(server, 'attributes', 1);
    await server.ctx.deviceState.flush();
    const open = await serverAttributes(device.id);
    expect(open).toMatchObject({ active: true, lastActivityTime: expect.any(Number) });
    await api('POST', `/api/plugins/telemetry/DEVICE/${device.id}/attributes/SHARED_SCOPE`, { mode: 'eco' });
    expect((await poll).status).toBe(200);
    await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes?sharedKeys=mode`);
    await server.ctx.deviceState.flush();
    const after = await serverAttributes(device.id);
    expect(after.lastActivityTime).toBeGreaterThanOrEqual(Number(open.lastActivityTime));
    expect(Object.keys(after).sort()).toEqual(['active', 'lastActivityTime']);
  });

  it('counts no firmware or software download as activity, as ThingsBoard\'s transport records none for an OTA package request', async () => {
    const device = await newDeviceVia(api);
    for (const kind of ['firmware', 'software']) {
      const res = await call(server.httpUrl, 'GET', `/api/v1/${device.token}/${kind}?title=fw&version=1`);
      expect(res.status).toBe(404);
    }
    await server.ctx.deviceState.flush();
    expect(server.ctx.deviceState.isActive(device.id)).toBe(false);
    expect(await serverAttributes(device.id)).toEqual({ active: false });
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/claim`, {});
    await server.ctx.deviceState.flush();
    expect(await serverAttributes(device.id)).toEqual({ active: true, lastActivityTime: expect.any(Number) });
  });

  it('saves a later request\'s time at the next flush, and nothing at a flush with no request since the last', async () => {
    const device = await newDeviceVia(api);
    const lastActivity = async () => ((await api('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes/SERVER_SCOPE?keys=lastActivityTime`)).json() as Attribute[])[0];
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { t: 1 });
    await server.ctx.deviceState.flush();
    const first = await lastActivity();
    // A later millisecond for the next request.
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(Number(first.value)), { interval: 1 });
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { t: 2 });
    await server.ctx.deviceState.flush();
    const second = await lastActivity();
    expect(Number(second.value)).toBeGreaterThan(Number(first.value));
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(second.lastUpdateTs), { interval: 1 });
    await server.ctx.deviceState.flush();
    expect(await lastActivity()).toEqual(second);
  });

  it('saves the rest of a batch when one of its devices was deleted meanwhile', async () => {
    const gone = await newDeviceVia(api);
    const kept = await newDeviceVia(api);
    for (const device of [gone, kept]) expect((await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { t: 1 })).status).toBe(200);
    // Deleted in the store alone, so that the device state still holds its activity for the next batch.
    const { store } = server.ctx;
    await store.write(() => store.deleteDevice(gone.id));
    await server.ctx.deviceState.flush();
    expect(await serverAttributes(kept.id)).toMatchObject({ active: true, lastActivityTime: expect.any(Number) });
    expect(store.deviceById(gone.id)).toBeUndefined();
    expect(store.attributes(gone.id, 'SERVER_SCOPE')).toEqual([]);
  });

  it('saves a fleet\'s activity in transactions of at most 500 devices in device id order, so that requests go on between them and each rewrites one stretch of the attributes, and loses none', async () => {
    const { store } = server.ctx;
    const profileId = store.defaultProfile().id;
    const fleet = Array.from({ length: 1201 }, (_, i) => newDevice({ name: `fleet-${i}`, profileId }));
    await store.write(() => fleet.forEach((device) => store.insertDevice(device)));
    await server.ctx.deviceState.flush();
    for (const device of fleet) expect((await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes`)).status).toBe(200);
    const writes = vi.spyOn(store, 'write');
    try {
      await server.ctx.deviceState.flush();
      const runs = writes.mock.calls.map(([, run]) => run as [string, unknown][]);
      expect(runs.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...runs.map((run) => run.length))).toBeLessThanOrEqual(500);
      const ids = runs.flat().map(([id]) => id);
      expect(new Set(ids)).toEqual(new Set(fleet.map((device) => device.id)));
      // Ascending across the runs, so that each run covers the ids between its first and its last.
      expect(ids).toEqual([...ids].sort());
    } finally {
      writes.mockRestore();
    }
    for (const device of fleet) expect(store.attributes(device.id, 'SERVER_SCOPE', ['active'])).toMatchObject([{ value: true }]);
  });

  it('watches every device after a restart: one saved active goes inactive, one never active gets its inactivityAlarmTime', async () => {
    const dir = tempDir();
    const first = await startTestServer({}, dir);
    const firstApi = await adminApi(first);
    const seen = await newDeviceVia(firstApi);
    const never = await newDeviceVia(firstApi);
    await call(first.httpUrl, 'POST', `/api/v1/${seen.token}/telemetry`, { t: 1 });
    await stopTestServer(first, false);
    const second = await startTestServer({}, dir);
    try {
      expect(second.ctx.deviceState.isActive(seen.id)).toBe(true);
      const later = Date.now() + 600_000;
      await second.ctx.deviceState.check(later);
      const secondApi = await adminApi(second);
      const read = async (id: string) => Object.fromEntries(((await secondApi('GET', `/api/plugins/telemetry/DEVICE/${id}/values/attributes/SERVER_SCOPE`)).json() as Attribute[]).map((a) => [a.key, a.value]));
      expect(await read(seen.id)).toMatchObject({ active: false, inactivityAlarmTime: later });
      expect(await read(never.id)).toEqual({ active: false, inactivityAlarmTime: later });
      // Reported once: a later check saves nothing more.
      await second.ctx.deviceState.check(later + 600_000);
      expect(await read(never.id)).toEqual({ active: false, inactivityAlarmTime: later });
    } finally {
      await stopTestServer(second);
    }
  });
});

describe('the timers', () => {
  it('save the marks and check the timeouts on their own', async () => {
    const own = await startTestServer({ activityReportIntervalMs: 20, stateCheckIntervalMs: 20 });
    try {
      const ownApi = await adminApi(own);
      const device = await newDeviceVia(ownApi);
      await ownApi('POST', `/api/plugins/telemetry/DEVICE/${device.id}/attributes/SERVER_SCOPE`, { inactivityTimeout: 1 });
      await call(own.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { t: 1 });
      const read = async () => ((await ownApi('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes/SERVER_SCOPE?keys=lastActivityTime,inactivityAlarmTime`)).json() as Attribute[]).map((a) => a.key).sort();
      await vi.waitFor(async () => expect(await read()).toEqual(['inactivityAlarmTime', 'lastActivityTime']), { timeout: 5000, interval: 20 });
    } finally {
      await stopTestServer(own);
    }
  });
});

describe('a store that cannot take writes', () => {
  it('keeps the saves another process blocks, logs the spell once rather than each batch, and saves them once it can', async () => {
    const warnings: string[] = [];
    const logStream = { write: (line: string) => void warnings.push((JSON.parse(line) as { msg: string }).msg) };
    const own = await startTestServer({ logLevel: 'warn' }, tempDir(), { logStream });
    try {
      const ownApi = await adminApi(own);
      const device = await newDeviceVia(ownApi);
      expect((await call(own.httpUrl, 'GET', `/api/v1/${device.token}/attributes`)).status).toBe(200);
      const state = async () => Object.fromEntries(((await ownApi('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes/SERVER_SCOPE`)).json() as Attribute[]).map((a) => [a.key, a.value]));
      // Another process holds the database's write lock: each batch waits out SQLite's busy timeout and is refused.
      const other = new Database(own.dbPath);
      other.prepare('BEGIN IMMEDIATE').run();
      try {
        await own.ctx.deviceState.flush();
        await own.ctx.deviceState.flush();
      } finally {
        other.prepare('ROLLBACK').run();
        other.close();
      }
      expect(own.ctx.deviceState.isActive(device.id)).toBe(true);
      expect(await state()).toEqual({ active: false });
      expect(warnings).toEqual([`the store (${own.dbPath}) cannot take writes: another process holds the database (SQLITE_BUSY); writes answer 503 until it can, reads go on`]);
      await own.ctx.deviceState.flush();
      expect(await state()).toEqual({ active: true, lastActivityTime: expect.any(Number) });
    } finally {
      await stopTestServer(own);
    }
  }, 30_000);
});

describe('device state as telemetry', () => {
  it('keeps the same keys as latest telemetry, and the timeout as a server attribute, across a restart', async () => {
    const dir = tempDir();
    const own = await startTestServer({ persistStateToTelemetry: true }, dir);
    const ownApi = await adminApi(own);
    const device = await newDeviceVia(ownApi);
    await ownApi('POST', `/api/plugins/telemetry/DEVICE/${device.id}/attributes/SERVER_SCOPE`, { inactivityTimeout: 60_000 });
    await call(own.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { t: 1 });
    await own.ctx.deviceState.flush();
    const latest = (await ownApi('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/timeseries?keys=active,lastActivityTime,t`)).json() as Record<string, { value: unknown }[]>;
    expect(latest.active[0].value).toBe('true');
    const seen = Number(latest.lastActivityTime[0].value);
    expect(seen).toBeGreaterThan(0);
    expect((await ownApi('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes/SERVER_SCOPE`)).json()).toMatchObject([{ key: 'inactivityTimeout' }]);
    await stopTestServer(own, false);

    const again = await startTestServer({ persistStateToTelemetry: true }, dir);
    try {
      expect(again.ctx.deviceState.isActive(device.id)).toBe(true);
      // The device's own 60 s, read back at start, not the 600 s default.
      await again.ctx.deviceState.check(seen + 60_000);
      expect(again.ctx.deviceState.isActive(device.id)).toBe(false);
      const after = (await (await adminApi(again))('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/timeseries?keys=active,inactivityAlarmTime`)).json() as Record<string, { value: unknown }[]>;
      expect(after).toMatchObject({ active: [{ value: 'false' }], inactivityAlarmTime: [{ value: String(seen + 60_000) }] });
    } finally {
      await stopTestServer(again);
    }
  });
});

describe('configuration', () => {
  it('names a bad timeout or interval by its dhi serve option, and reports activity every 3 s by default as ThingsBoard', () => {
    expect(() => validateConfig({ inactivityTimeoutMs: 0 })).toThrow(new ConfigError('--inactivity-timeout', 'expected an integer in 1..9007199254740991, got 0'));
    expect(() => validateConfig({ stateCheckIntervalMs: 1.5 })).toThrow(ConfigError);
    expect(() => validateConfig({ activityReportIntervalMs: 0 })).toThrow(new ConfigError('--activity-report-interval', 'expected an integer in 1..2147483647, got 0'));
    expect(validateConfig({}).activityReportIntervalMs).toBe(3000);
  });
});
