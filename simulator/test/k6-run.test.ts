// The exported k6 script, run: its exported functions under stand-ins of the k6 modules it
// imports (test/k6/: k6/http with k6's synchronous semantics, k6/metrics, k6/execution, sleep),
// one process per VU, against the reference server. What it sent is what the server stored; what
// it measured is in the same per-path metrics dhi simulate reports, every outcome classed and timed.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, storedRows, type TestServer } from '../../reference-server/test/helpers.js';
import { exportK6 } from '../k6/export.js';
import { loadTemplates } from '../routes.js';
import { scenarioFromJson } from '../scenario.js';

const VU = new URL('./k6/vu.ts', import.meta.url).pathname;
const REGISTER = new URL('./k6/register.ts', import.meta.url).pathname;

interface VuLog {
  result: unknown;
  requests: { method: string; url: string; status: number; error_code: number; timeoutMs: number; tags: Record<string, string> }[];
  metrics: { metric: string; value: number; tags: Record<string, string> }[];
  sleeps: number[];
}
interface SetupData {
  jwt: string;
  devices: { id: string; token: string }[];
}

describe('the exported k6 script, run under stand-ins of the k6 modules', () => {
  let server: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'dhi-k6-run-'));
  const script = join(dir, 'mixed.k6.ts');
  // An ES module, as k6 reads it.
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  let data: SetupData;
  const dataFile = join(dir, 'data.json');

  /** One VU running `fn` for `iterations` iterations, numbered from `first` (k6's iterationInTest). */
  const vu = (fn: string, vuId: number, first: number, iterations: number, file: string | null = dataFile) =>
    new Promise<VuLog>((resolve, reject) => {
      const args = ['--import', 'tsx', '--import', REGISTER, VU, script, fn, String(vuId), String(first), String(iterations), ...(file ? [file] : [])];
      execFile(process.execPath, args, { env: { ...process.env, DHI_TARGET: server.httpUrl, DHI_CONTROL_URL: server.httpUrl }, timeout: 60_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${fn}: ${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as VuLog),
      );
    });
  const values = (log: VuLog, metric: string) => log.metrics.filter((m) => m.metric === metric);

  beforeAll(async () => {
    server = await startTestServer();
    const scenario = scenarioFromJson({
      name: 'k6-run', extends: 'mixed', telemetry: { intervalMs: 200 }, clientRpc: { intervalMs: 200 }, polls: { timeoutMs: 3000 }, rpcRate: 5, attrRate: 5,
    });
    exportK6(script, { scenario, templates: await loadTemplates(), target: server.httpUrl, controlUrl: server.httpUrl, username: 'tenant@thingsboard.org', devices: 2, durationMs: 10_000, requestTimeoutMs: 4000, maxConnectionsPerDevice: 4 }, []);
    const setup = await vu('setup', 1, 0, 1, null);
    data = setup.result as SetupData;
    writeFileSync(dataFile, JSON.stringify(data));
  }, 60_000);
  afterAll(async () => {
    await stopTestServer(server);
  });

  it('creates its fleet through the control API in setup', () => {
    expect(data.devices).toHaveLength(2);
    for (const d of data.devices) expect(server.ctx.store.deviceByToken(d.token)?.id).toBe(d.id);
  });

  it('sends telemetry as its devices, each VU keeping to one device, every request with the timeout and every outcome timed', async () => {
    const [loop, open] = await Promise.all([vu('telemetryLoop', 1, 0, 3), vu('telemetry', 2, 1, 2)]);
    // VU 1 took device 0 at its first iteration and kept it; VU 2 device 1.
    expect(new Set(loop.requests.map((r) => r.url))).toEqual(new Set([`${server.httpUrl}/api/v1/${data.devices[0].token}/telemetry`]));
    expect(new Set(open.requests.map((r) => r.url))).toEqual(new Set([`${server.httpUrl}/api/v1/${data.devices[1].token}/telemetry`]));
    for (const r of [...loop.requests, ...open.requests]) expect(r).toMatchObject({ status: 200, timeoutMs: 4000, tags: { path: 'telemetry' } });
    expect(await storedRows(server.ctx.store, server.dbPath, data.devices[0].id)).toBeGreaterThan(0);
    expect(await storedRows(server.ctx.store, server.dbPath, data.devices[1].id)).toBeGreaterThan(0);
    // The closed loop sleeps the rest of its 200 ms interval after each send.
    expect(loop.sleeps).toHaveLength(3);
    for (const s of loop.sleeps) expect(s).toBeLessThanOrEqual(0.2);
    for (const log of [loop, open]) {
      const n = log.requests.length;
      expect(values(log, 'dhi_telemetry')).toHaveLength(n);
      expect(values(log, 'dhi_telemetry_ok').reduce((sum, m) => sum + m.value, 0)).toBe(n);
      expect(values(log, 'dhi_telemetry_failed').every((m) => m.value === 0)).toBe(true);
    }
  }, 60_000);

  it('classes a refused request as dhi simulate does, and times it too', async () => {
    const stranger = join(dir, 'stranger.json');
    writeFileSync(stranger, JSON.stringify({ ...data, devices: [{ id: data.devices[0].id, token: 'no-such-device' }] }));
    const log = await vu('telemetry', 3, 0, 1, stranger);
    expect(log.requests[0].status).toBe(401);
    expect(values(log, 'dhi_telemetry_errors')).toEqual([{ metric: 'dhi_telemetry_errors', value: 1, tags: { outcome: 'status 401' } }]);
    expect(values(log, 'dhi_telemetry')).toEqual([expect.objectContaining({ tags: { outcome: 'status 401' } })]);
    expect(values(log, 'dhi_telemetry_failed')).toEqual([expect.objectContaining({ value: 1 })]);
  }, 60_000);

  it('drives a two-way RPC to a polling device: delivered, replied with its sequence number, answered', async () => {
    // Iteration 0 of each scenario: the poller plays device 0, and the driver addresses device 0.
    const [poller, driver] = await Promise.all([vu('rpcPoll', 4, 0, 1), vu('driveRpc', 5, 0, 1)]);
    expect(values(driver, 'dhi_rpc')).toEqual([expect.objectContaining({ tags: { outcome: 'ok' } })]);
    expect(driver.requests[0]).toMatchObject({ status: 200, timeoutMs: 10_000 + 4000, tags: { path: 'rpc' } });
    expect(poller.requests.map((r) => [r.tags.path, r.status, r.timeoutMs])).toEqual([
      ['rpcDelivery', 200, 3000 + 4000],
      ['rpcReply', 200, 4000],
    ]);
    expect(values(poller, 'dhi_rpcDelivery_ok')).toHaveLength(1);
    expect(values(poller, 'dhi_rpcReply_ok')).toHaveLength(1);
    // Not persistent: the command ended on the server, and nothing of it was stored.
    expect(server.ctx.rpc.size()).toEqual({ queued: 0, awaiting: 0 });
    expect(server.ctx.store.rpcByRequestId(data.devices[0].id, 0)).toBeUndefined();
  }, 60_000);

  it('pushes a shared attribute change to a device holding its poll, timed from the write', async () => {
    const poller = vu('attributePoll', 6, 1, 1); // device 1
    for (let i = 0; i < 400 && server.ctx.polls.size().attributes === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.ctx.polls.size().attributes).toBe(1);
    const driver = await vu('driveAttributes', 7, 1, 1); // iteration 1: device 1
    const pushed = await poller;
    expect(values(driver, 'dhi_attributeWrite_ok')).toHaveLength(1);
    expect(values(pushed, 'dhi_attributePush')).toEqual([expect.objectContaining({ tags: { outcome: 'ok' } })]);
    expect(values(pushed, 'dhi_attributePush')[0].value).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('deletes its fleet in teardown', async () => {
    const log = await vu('teardown', 8, 0, 1);
    expect(log.requests.map((r) => r.status)).toEqual([200, 200]);
    for (const d of data.devices) expect(server.ctx.store.deviceByToken(d.token)).toBeUndefined();
  }, 60_000);
});
