// Device state over real sockets (ThingsBoard's DefaultDeviceStateService): inactive when created,
// active on a message, inactive again after the timeout (the default or the device's own), connects
// and disconnects from long polls, and the same keys as telemetry with --persist-state-to-telemetry.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, startTestServer, stopTestServer, tempDir, type TestServer } from './helpers.js';
import { adminApi, newDeviceVia, openPolls, type Api } from './control-helpers.js';
import { validateConfig, ConfigError } from '../config.js';

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

  it('records a connect when a long poll opens and a disconnect when the last one ends', async () => {
    const device = await newDeviceVia(api);
    const poll = call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes/updates?timeout=20000`);
    await openPolls(server, 'attributes', 1);
    await server.ctx.deviceState.flush();
    const open = await serverAttributes(device.id);
    expect(open).toMatchObject({ active: true });
    expect(open.lastConnectTime).toEqual(expect.any(Number));
    expect(open).not.toHaveProperty('lastDisconnectTime');
    await api('POST', `/api/plugins/telemetry/DEVICE/${device.id}/attributes/SHARED_SCOPE`, { mode: 'eco' });
    expect((await poll).status).toBe(200);
    await server.ctx.deviceState.flush();
    const closed = await serverAttributes(device.id);
    expect(closed.lastDisconnectTime).toBeGreaterThanOrEqual(Number(open.lastConnectTime));
  });

  it('watches the devices saved active after a restart, so that they go inactive without a message', async () => {
    const dir = tempDir();
    const first = await startTestServer({}, dir);
    const firstApi = await adminApi(first);
    const device = await newDeviceVia(firstApi);
    await call(first.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { t: 1 });
    await stopTestServer(first, false);
    const second = await startTestServer({}, dir);
    try {
      await second.ctx.deviceState.check(Date.now() + 600_000);
      const res = await (await adminApi(second))('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes/SERVER_SCOPE?keys=active`);
      expect(res.json()).toMatchObject([{ key: 'active', value: false }]);
    } finally {
      await stopTestServer(second);
    }
  });
});

describe('the timers', () => {
  it('save the marks and check the timeouts on their own', async () => {
    const own = await startTestServer({ stateFlushIntervalMs: 20, stateCheckIntervalMs: 20 });
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

describe('device state as telemetry', () => {
  it('keeps the same keys as latest telemetry, and the timeout as a server attribute', async () => {
    const own = await startTestServer({ persistStateToTelemetry: true });
    try {
      const ownApi = await adminApi(own);
      const device = await newDeviceVia(ownApi);
      await call(own.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { t: 1 });
      await own.ctx.deviceState.flush();
      const latest = (await ownApi('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/timeseries?keys=active,lastActivityTime,t`)).json() as Record<string, { value: unknown }[]>;
      expect(latest.active[0].value).toBe('true');
      expect(Number(latest.lastActivityTime[0].value)).toBeGreaterThan(0);
      expect((await ownApi('GET', `/api/plugins/telemetry/DEVICE/${device.id}/values/attributes/SERVER_SCOPE`)).json()).toEqual([]);
    } finally {
      await stopTestServer(own);
    }
  });
});

describe('configuration', () => {
  it('names a bad timeout or check interval by its dhi serve option', () => {
    expect(() => validateConfig({ inactivityTimeoutMs: 0 })).toThrow(new ConfigError('--inactivity-timeout', 'expected an integer in 1..9007199254740991, got 0'));
    expect(() => validateConfig({ stateCheckIntervalMs: 1.5 })).toThrow(ConfigError);
  });
});
