// How a fleet brought online all at once starts its load (group.ts), against a real loopback
// target: every device whose first request falls in the load's first seconds has its connection
// open before the load's clock starts, its requests go over that connection and no other, and
// the counts are exact. No timing is asserted, only the order of events.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { monoNow } from '../clock.js';
import { startGroup, type Group, type GroupConfig } from '../group.js';
import { createRecorder, type Recorder } from '../metrics.js';
import { createRandom } from '../profiles.js';
import { loadTemplates } from '../routes.js';
import { applyOverrides, builtinScenario, type Scenario } from '../scenario.js';

describe('a fleet brought online all at once', () => {
  let server: ReturnType<typeof createServer>;
  let url: string;
  /** Per request: the token in its path and the client port that carried it. */
  const requests: { token: string; port: number }[] = [];
  let connections = 0;
  let waiting: { count: number; resolve: () => void } | undefined;
  let group: Group | undefined;

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      request.resume();
      request.on('end', () => {
        requests.push({ token: (request.url as string).split('/')[3], port: request.socket.remotePort as number });
        response.writeHead(200, { 'content-length': '0' }).end();
        if (waiting && requests.length >= waiting.count) waiting.resolve();
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    group?.end();
    requests.length = 0;
    connections = 0;
    waiting = undefined;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  async function configFor(scenario: Scenario, devices: number, seed: number): Promise<GroupConfig> {
    return {
      templates: (await loadTemplates()).device,
      target: { url, insecure: false, maxConnectionsPerDevice: 16, maxConnections: 1000, requestTimeoutMs: 5000 },
      scenario,
      devices: Array.from({ length: devices }, (_, index) => ({ index, token: `token${index}` })),
      seed,
      rampPerSecond: null,
      telemetryRate: scenario.telemetry.model === 'open' ? scenario.telemetry.rate : 0,
    };
  }

  /** A recorder that also keeps each record's start (the earlier of its intended and actual send time). */
  function keeping(starts: number[]): Recorder {
    const recorder = createRecorder();
    return {
      ...recorder,
      record(path, outcome, startedAt, ...rest) {
        starts.push(startedAt);
        recorder.record(path, outcome, startedAt, ...rest);
      },
    };
  }

  it("opens every device's connection before the load's clock starts, and sends each device's requests over it alone", async () => {
    const devices = 10;
    const config = await configFor(applyOverrides(builtinScenario('telemetry'), { rate: 200 }), devices, 1);
    const starts: number[] = [];
    const recorder = keeping(starts);
    let atOnline: { at: number; opened: number; requests: number } | undefined;
    const answered = new Promise<void>((resolve) => (waiting = { count: 3 * devices, resolve }));
    group = startGroup(config, recorder, () => {
      atOnline = { at: monoNow(), opened: (group as Group).connections().opened, requests: requests.length };
    });
    await answered;
    await group.drain();
    // Every device online, its connection opened ahead; no request yet.
    expect(atOnline).toMatchObject({ opened: devices, requests: 0 });
    // The load's first request was meant for a time after that (the earlier of meant and sent).
    expect(Math.min(...starts)).toBeGreaterThan((atOnline as { at: number }).at);
    // No connection opened at a send; each carried one device's requests; every request counted once.
    expect([group.connections().opened, connections]).toEqual([devices, devices]);
    const tokensByPort = new Map<number, Set<string>>();
    for (const r of requests) tokensByPort.set(r.port, (tokensByPort.get(r.port) ?? new Set()).add(r.token));
    expect([...tokensByPort.values()].every((tokens) => tokens.size === 1)).toBe(true);
    expect(new Set(requests.map((r) => r.token)).size).toBe(devices);
    const delta = recorder.drain(); // no steady state was set: all of it is warm-up
    expect(delta.warmup.telemetry?.ok).toBe(requests.length);
    expect(delta.online.length).toBe(devices);
    expect(starts.length).toBe(requests.length);
  });

  it('connects ahead only the devices whose first request falls within 2 s of the start; the others connect at it', async () => {
    const devices = 20;
    const seed = 7;
    const config = await configFor(applyOverrides(builtinScenario('telemetry'), { intervalMs: 10_000 }), devices, seed);
    // The group draws each closed-loop device's first turn from this stream, in fleet order.
    const random = createRandom(seed ^ 0x5eed);
    const soon = Array.from({ length: devices }, () => random() * 10_000).filter((ms) => ms < 2000).length;
    expect(soon).toBeGreaterThan(0);
    expect(soon).toBeLessThan(devices);
    let opened = -1;
    const online = new Promise<void>((resolve) =>
      (group = startGroup(config, createRecorder(), () => {
        opened = (group as Group).connections().opened;
        resolve();
      })),
    );
    await online;
    expect(opened).toBe(soon);
    expect(requests).toEqual([]);
  });
});
