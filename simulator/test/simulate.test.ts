// A short simulation against an in-process reference server: what the summary counts is what
// the server stored (telemetry rows, RPCs answered) and what the devices received.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, storedRows, type TestServer } from '../../reference-server/test/helpers.js';
import { simulate } from '../simulate.js';
import { createControl } from '../control.js';
import { loadTemplates } from '../routes.js';
import type { SimulationConfig } from '../simulation.js';
import type { PathName } from '../metrics.js';
import type { Summary } from '../report/summary.js';
import { scenarioFromJson } from '../scenario.js';
import { startFaultProxy } from '../../conformance/test/fault-proxy.js';

function config(server: TestServer, overrides: Partial<SimulationConfig>): SimulationConfig {
  return {
    target: server.httpUrl,
    controlUrl: server.httpUrl,
    username: 'tenant@thingsboard.org',
    password: 'tenant',
    devices: 200,
    durationMs: 5000,
    scenario: scenarioFromJson({ name: 'short-mixed', extends: 'mixed', telemetry: { intervalMs: 1000 }, rpcRate: 20, attrRate: 20, clientRpc: { intervalMs: 2000 } }),
    rampPerSecond: null,
    provision: null,
    tokensFile: null,
    workers: 0,
    seed: 7,
    keepDevices: true,
    insecure: false,
    warmupMs: null,
    maxConnectionsPerDevice: 16,
    requestTimeoutMs: 10_000,
    ...overrides,
  };
}

/** A path's successes over the whole run: warm-up and steady state. */
function okCount(summary: Summary, path: PathName): number {
  return (summary.paths[path]?.count ?? 0) + (summary.warmup.paths[path]?.count ?? 0);
}
function errorCount(summary: Summary, path: PathName): number {
  return (summary.paths[path]?.errors ?? 0) + (summary.warmup.paths[path]?.errors ?? 0);
}

/** Devices of one run, as the server stores them. */
function fleetOf(server: TestServer, namePrefix: string) {
  const page = server.ctx.store.listDevices({ page: 0, pageSize: 10_000, textSearch: namePrefix });
  return page.data.filter((d) => d.name.startsWith(namePrefix));
}


describe('dhi simulate against the reference server', () => {
  let server: TestServer;
  const reportDir = mkdtempSync(join(tmpdir(), 'dhi-sim-'));
  // Worker processes load TypeScript through tsx: on a busy machine that alone takes many seconds.
  const SLOW = 120_000;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await stopTestServer(server);
  });

  it('counts exactly what the server stored and what the devices received', async () => {
    const { summary, exitCode } = await simulate(config(server, {}), [], reportDir);
    expect(exitCode).toBe(0);
    const c = summary.counters;
    expect(c.devicesOnline).toBe(200);
    const devices = fleetOf(server, 'sim-');
    expect(devices).toHaveLength(200);

    // Telemetry: every acknowledged data point is a stored row, and nothing else is.
    expect(errorCount(summary, 'telemetry')).toBe(0);
    expect(okCount(summary, 'telemetry')).toBeGreaterThan(500);
    const counts = await Promise.all(devices.map((d) => storedRows(server.ctx.store, server.dbPath, d.id)));
    const rows = counts.reduce((n, c) => n + c, 0);
    expect(rows).toBe(c.telemetryPoints);
    expect(c.telemetryPoints).toBe(okCount(summary, 'telemetry') * 3); // smart meter: three keys a message

    // RPC: every two-way call the driver saw answered is a reply a device sent (the server relays it),
    // and each answer carried the sequence number of its own command (no `mismatch`).
    expect(errorCount(summary, 'rpc')).toBe(0);
    expect(okCount(summary, 'rpc')).toBeGreaterThan(50);
    expect(c.rpcReplied).toBe(okCount(summary, 'rpc'));
    expect(c.rpcDelivered).toBe(okCount(summary, 'rpc'));
    // The driver's commands are not persistent: every one has ended on the server, and none was stored.
    expect(server.ctx.rpc.size()).toEqual({ queued: 0, awaiting: 0 });
    expect(devices.filter((d) => server.ctx.store.rpcByRequestId(d.id, 0))).toEqual([]);

    // Attribute changes: written = pushed + lost + unconfirmed, and each push was timed.
    const a = summary.attributeChanges;
    expect(errorCount(summary, 'attributeWrite')).toBe(0);
    expect(a.written).toBe(okCount(summary, 'attributeWrite'));
    expect(a.pushed).toBe(okCount(summary, 'attributePush'));
    expect(a.pushed).toBeGreaterThan(0);
    expect(a.written).toBe(a.pushed + a.lost + a.unconfirmed);
    expect(a.unconfirmed).toBeGreaterThanOrEqual(0);

    // Device-side RPC answered by the built-in getCurrentTime rule.
    expect(okCount(summary, 'clientRpc')).toBeGreaterThan(0);
    expect(errorCount(summary, 'clientRpc')).toBe(0);

    // All at once: the warm-up lasts until every device is online, then the steady state runs.
    expect(summary.warmup.ms).toBeGreaterThan(0);
    expect(summary.steadyMs).toBeGreaterThan(0);
    expect(summary.warmup.ms + summary.steadyMs).toBe(summary.runMs);
    expect(summary.paths.rpc!.correctedForCoordinatedOmission).toBe(true);
    expect(summary.paths.attributePush!.correctedForCoordinatedOmission).toBe(false);

    expect(summary.simulator.requests).toBeGreaterThan(0);
    expect(summary.simulator.cpuMicrosPerRequest).toBeGreaterThan(0);
  }, SLOW);

  it.each([0, 1])("waits at the end for the devices' replies to the driver's last RPCs, begun after the devices had nothing in flight (%i worker processes)", async (workers) => {
    // Through this proxy a command reaches its device 1 s after it was queued, and a device's reply
    // is answered 0.5 s after the server relayed it to the driver. The run's load ends before the
    // first command arrives (the devices have nothing measured in flight then), and the driver hears
    // each answer before the device does.
    const proxy = await startFaultProxy(server.httpUrl, {
      name: 'slow commands and replies',
      caught: [],
      async response(req, res) {
        if (/\/rpc(\?|$)/.test(req.url) && req.method === 'GET') await delay(1000);
        if (/\/rpc\/\d+$/.test(req.url) && req.method === 'POST') await delay(500);
        return res;
      },
    });
    try {
      const scenario = scenarioFromJson({ name: 'late-replies', extends: 'rpc', rpcRate: 4 });
      const { summary } = await simulate(config(server, { target: proxy.url, devices: 2, durationMs: 1000, scenario, workers }), [], reportDir);
      expect(okCount(summary, 'rpc')).toBeGreaterThan(0);
      expect(errorCount(summary, 'rpc')).toBe(0);
      expect(errorCount(summary, 'rpcReply')).toBe(0);
      expect(summary.counters.rpcReplied).toBe(okCount(summary, 'rpc'));
      expect(okCount(summary, 'rpcReply')).toBe(okCount(summary, 'rpc'));
    } finally {
      await proxy.close();
    }
  }, SLOW);

  it('adds up the same way when the devices run in worker processes', async () => {
    const scenario = scenarioFromJson({ name: 'workers', extends: 'mixed', telemetry: { intervalMs: 500 }, rpcRate: 10, attrRate: 0, clientRpc: false });
    const before = new Set(fleetOf(server, 'sim-').map((d) => d.id));
    const { summary } = await simulate(config(server, { devices: 40, durationMs: 2000, workers: 2, scenario }), [], reportDir);
    const devices = fleetOf(server, 'sim-').filter((d) => !before.has(d.id));
    expect(devices).toHaveLength(40);
    expect(summary.simulator.processes).toBe(3);
    const counts = await Promise.all(devices.map((d) => storedRows(server.ctx.store, server.dbPath, d.id)));
    const rows = counts.reduce((n, c) => n + c, 0);
    expect(rows).toBe(summary.counters.telemetryPoints);
    expect(okCount(summary, 'rpc')).toBe(summary.counters.rpcReplied);
  }, SLOW);

  it('provisions its fleet with a provision key, then deletes the devices it created', async () => {
    const control = createControl({ url: server.httpUrl, username: 'tenant@thingsboard.org', password: 'tenant', templates: (await loadTemplates()).control, connections: 1, requestTimeoutMs: 10_000 });
    await control.login();
    const profile = await control.call('POST', (await loadTemplates()).control.saveDeviceProfile, {
      name: 'sim-provisioning',
      provisionType: 'ALLOW_CREATE_NEW_DEVICES',
      provisionDeviceKey: 'sim-key',
      profileData: { provisionConfiguration: { type: 'ALLOW_CREATE_NEW_DEVICES', provisionDeviceSecret: 'sim-secret' } },
    });
    await control.close();
    expect(profile.status).toBe(200);
    const before = server.ctx.store.listDevices({ page: 0, pageSize: 10_000 }).totalElements;
    const scenario = scenarioFromJson({ name: 'provisioned', extends: 'telemetry', telemetry: { intervalMs: 200 } });
    const { summary } = await simulate(
      config(server, { devices: 20, durationMs: 1000, scenario, provision: { key: 'sim-key', secret: 'sim-secret' }, keepDevices: false }),
      [],
      reportDir,
    );
    expect(summary.fleet).toEqual({ source: 'provisioning', members: 20, addressable: 20 });
    expect(okCount(summary, 'telemetry')).toBeGreaterThan(0);
    expect(errorCount(summary, 'telemetry')).toBe(0);
    expect(server.ctx.store.listDevices({ page: 0, pageSize: 10_000 }).totalElements).toBe(before);
  }, SLOW);
});
