// dhi bench end to end, briefly: it measures, it does not judge (speed is never asserted here).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseOps, runBench } from '../bench.js';
import { medianRun, serverCpu, type BenchFigures, type TelemetryLogRounds } from '../bench-figures.js';
import { medianRound, type CostFigures } from '../bench-cost.js';
import { fleetRequests, telemetryBody } from '../bench-fleet.js';
import { loadTemplates } from '../routes.js';
import { startTestServer, stopTestServer } from '../../reference-server/test/helpers.js';
import type { Written } from '../../reference-server/store/types.js';

/** runBench with its console quiet (its lines go to `lines`), and the JSON report it wrote. */
async function benchReport(options: Partial<Parameters<typeof runBench>[0]>, lines: string[] = []) {
  const reportDir = mkdtempSync(join(tmpdir(), 'dhi-bench-'));
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void lines.push(parts.join(' ')));
  try {
    await runBench({ ops: 'telemetry', duration: 1000, connections: 4, pipelining: 1, baseline: false, rounds: 1, holdPolls: 0, username: 'tenant@thingsboard.org', password: 'tenant', reportDir, ...options });
  } finally {
    log.mockRestore();
  }
  const file = readdirSync(reportDir).find((f) => f.endsWith('.json'))!;
  return JSON.parse(readFileSync(join(reportDir, file), 'utf8'));
}

/**
 * The reference server's telemetry rounds (with --baseline, one per round): each wrote three rows a
 * request to the log (the median round's answered requests, and at most those on `connections` in
 * flight at its end besides), and its folds of the whole log ran, at least the one after the round.
 */
function expectFoldedRounds(figures: { roundsTelemetryLog: { telemetry: TelemetryLogRounds } }, median: BenchFigures, connections: number): void {
  const { rows, folds } = figures.roundsTelemetryLog.telemetry;
  expect(rows).toHaveLength(folds.length);
  for (const [i, written] of rows.entries()) {
    expect(written).toBeGreaterThan(0);
    expect(folds[i]).toBeGreaterThanOrEqual(1);
  }
  const log = median.telemetryLog!;
  expect(log.rows).toBeGreaterThanOrEqual(3 * median.total);
  expect(log.rows).toBeLessThanOrEqual(3 * (median.total + connections));
  expect(rows).toContain(log.rows);
}

describe('dhi bench', () => {
  it('runs an operation against a reference server and a bare Fastify baseline, and writes the JSON', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'dhi-bench-'));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await runBench({ ops: 'telemetry', duration: 1000, connections: 4, pipelining: 1, baseline: true, rounds: 3, holdPolls: 50, username: 'tenant@thingsboard.org', password: 'tenant', reportDir });
    } finally {
      log.mockRestore();
    }
    const [file] = readdirSync(reportDir);
    const report = JSON.parse(readFileSync(join(reportDir, file), 'utf8'));
    expect(report.results.telemetry.total).toBeGreaterThan(0);
    expect(report.results.telemetry.non2xx).toBe(0);
    expect(report.results.telemetry.errors).toBe(0);
    // One device and one fixed request: no fleet to bring online first.
    expect(report.warmUpRequests).toBeUndefined();
    expect(report.baseline.telemetry.total).toBeGreaterThan(0);
    expect(report.ratio.telemetry).toBeGreaterThan(0);
    // Three alternating rounds per side; the figures kept are the median round's.
    expect(report.roundsRequestsPerSecond.telemetry.reference).toHaveLength(3);
    expect(report.roundsRequestsPerSecond.telemetry.baseline).toHaveLength(3);
    expect(report.roundsRequestsPerSecond.telemetry.durable).toHaveLength(3);
    expect(report.roundsRequestsPerSecond.telemetry.indexed).toHaveLength(3);
    expect([...report.roundsRequestsPerSecond.telemetry.reference].sort((a: number, b: number) => a - b)[1]).toBe(report.results.telemetry.requestsPerSecond);
    // Both servers are child processes of the bench: their CPU per request is measured every round.
    const cpu = report.serverCpu.telemetry;
    expect(cpu.rounds.reference).toHaveLength(3);
    expect(cpu.rounds.baseline).toHaveLength(3);
    for (const value of [...cpu.rounds.reference, ...cpu.rounds.baseline]) expect(value).toBeGreaterThan(0);
    expect(cpu.ratio).toBe(Math.round((cpu.baseline / cpu.reference) * 1000) / 1000);
    // Every round of the reference server folded what it wrote into the time series, counted in its CPU.
    expectFoldedRounds(report, report.results.telemetry, 4);
    expect(report.baseline.telemetry.telemetryLog).toBeUndefined();
    // The held polls were all open on the server while telemetry was measured.
    expect(report.heldPolls.open).toBe(50);
    expect(report.heldPolls.rssHoldingBytes).toBeGreaterThan(0);
    expect(report.heldPolls.telemetry.total).toBeGreaterThan(0);
    expect(report.heldPolls.telemetry.serverCpuMicrosPerRequest).toBeGreaterThan(0);
    expect(report.heldPolls.telemetry.telemetryLog.rows).toBeGreaterThanOrEqual(3 * report.heldPolls.telemetry.total);
  }, 120_000); // two server processes start from TypeScript sources: slow on a busy machine

  it('takes the median round', () => {
    const run = (requestsPerSecond: number) => ({ requestsPerSecond }) as BenchFigures;
    expect(medianRun([run(5), run(9), run(7)]).requestsPerSecond).toBe(7);
    const cost = (cpuMicrosPerRequest: number, requests: number, majorGcs = 0) => ({ cpuMicrosPerRequest, requests, window: { majorGcs } }) as CostFigures;
    // The median round's own figures, and every round's cost and major GCs in the order run.
    expect(medianRound([cost(80, 1, 1), cost(40, 2), cost(60, 3)])).toMatchObject({ cpuMicrosPerRequest: 60, requests: 3, roundsMicrosPerRequest: [80, 40, 60], roundsMajorGcs: [1, 0, 0] });
  });

  it("takes each side's median server CPU, whichever round had the median rate, and reads the ratio like the throughput's", () => {
    const run = (requestsPerSecond: number, serverCpuMicrosPerRequest?: number) => ({ requestsPerSecond, serverCpuMicrosPerRequest }) as BenchFigures;
    expect(serverCpu([run(100, 60), run(90, 50), run(120, 70)], [run(200, 30), run(210, 40), run(190, 20)])).toEqual({
      reference: 60, baseline: 30, ratio: 0.5, rounds: { reference: [60, 50, 70], baseline: [30, 40, 20] },
    });
    // A server the bench did not start (--target) has no CPU figure, and then no comparison.
    expect(serverCpu([run(100), run(90)], [run(200, 30), run(210, 40)])).toBeUndefined();
  });

  it('sends each request of a fleet run to the next device, round robin, with telemetry values of its own', async () => {
    const t = await loadTemplates();
    const tokens = ['A1', 'B2', 'C3', 'D4'];
    const [telemetry] = fleetRequests('telemetry', t, tokens, 3);
    expect(telemetry.method).toBe('POST');
    const sent = Array.from({ length: 7 }, () => ({ ...telemetry.setupRequest({}) }));
    // Only the first three tokens: the fleet is the first `devices` of them.
    expect(sent.map((r) => r.path)).toEqual(['A1', 'B2', 'C3', 'A1', 'B2', 'C3', 'A1'].map((token) => `/api/v1/${token}/telemetry`));
    expect(sent.map((r) => r.body)).toEqual(sent.map((_, n) => telemetryBody(n)));
    expect(new Set(sent.map((r) => r.body)).size).toBe(7);
    expect(JSON.parse(telemetryBody(1001))).toEqual({ pulseCounter: 1001, leakage: true, batteryLevel: 0.1 });
    const [attributes] = fleetRequests('attributes', t, tokens, 2);
    expect(attributes.method).toBe('GET');
    expect([0, 1, 2].map(() => attributes.setupRequest({}).path)).toEqual(['/api/v1/A1/attributes', '/api/v1/B2/attributes', '/api/v1/A1/attributes']);
    const [polls] = fleetRequests('longpoll', t, tokens, 4);
    expect(polls.setupRequest({}).path).toBe('/api/v1/A1/attributes/updates?timeout=1');
    // A run's list starts at the first device whatever runs came before.
    expect(fleetRequests('attributes', t, tokens, 2)[0].setupRequest({}).path).toBe('/api/v1/A1/attributes');
  });

  it('measures each --devices fleet size against the bare route, every size in each round, with both ratios per size and their spread', async () => {
    const lines: string[] = [];
    const report = await benchReport({ devices: [1, 3], baseline: true, rounds: 2 }, lines);
    expect(report.devices).toEqual([1, 3]);
    expect(report.results).toBeUndefined();
    expect(report.fleets.map((f: { devices: number }) => f.devices)).toEqual([1, 3]);
    for (const fleet of report.fleets) {
      expect(fleet.results.telemetry.total).toBeGreaterThan(0);
      // Each server first got the fleet's load, unmeasured.
      const warmUp = fleet.warmUpRequests.telemetry;
      expect(Object.keys(warmUp).sort()).toEqual(['baseline', 'durable', 'indexed', 'reference']);
      for (const requests of Object.values(warmUp)) expect(requests).toBeGreaterThan(0);
      // Every request went to a device of the reference server's fleet, with a body it accepted.
      expect(fleet.results.telemetry.non2xx).toBe(0);
      expect(fleet.results.telemetry.errors).toBe(0);
      expect(fleet.baseline.telemetry.total).toBeGreaterThan(0);
      expect(fleet.ratio.telemetry).toBe(Math.round((fleet.results.telemetry.requestsPerSecond / fleet.baseline.telemetry.requestsPerSecond) * 1000) / 1000);
      expect(fleet.serverCpu.telemetry.ratio).toBe(Math.round((fleet.serverCpu.telemetry.baseline / fleet.serverCpu.telemetry.reference) * 1000) / 1000);
      // Telemetry is also measured against the bare durable routes, the same requests, both ratios against each.
      for (const side of ['durable', 'indexed']) {
        const durable = fleet[`${side}Baseline`].telemetry;
        expect(durable.total).toBeGreaterThan(0);
        expect(durable.non2xx).toBe(0);
        expect(durable.errors).toBe(0);
        expect(fleet.roundsRequestsPerSecond.telemetry[side]).toHaveLength(2);
        expect(fleet.roundsRequestsPerSecond.telemetry[side]).toContain(durable.requestsPerSecond);
        expect(fleet[`${side}Ratio`].telemetry).toBe(Math.round((fleet.results.telemetry.requestsPerSecond / durable.requestsPerSecond) * 1000) / 1000);
        const cpu = fleet[`${side}ServerCpu`].telemetry;
        expect(cpu.rounds.baseline).toHaveLength(2);
        expect(cpu.rounds.baseline).toContain(cpu.baseline);
        expect(cpu.rounds.baseline).toContain(durable.serverCpuMicrosPerRequest);
        expect(cpu.ratio).toBe(Math.round((cpu.baseline / cpu.reference) * 1000) / 1000);
      }
      expectFoldedRounds(fleet, fleet.results.telemetry, 4);
    }
    // Every fleet is warmed up first; then each round measures every fleet in turn.
    const progress = lines.filter((line) => line.startsWith('bench telemetry: '));
    const warmUps = progress.flatMap((line, i) => (line.includes('warming up') ? [i] : []));
    const rounds = progress.flatMap((line, i) => {
      const run = /\(4 connections, 1s, (\d+) devices?\) \(round (\d) of 2\)$/.exec(line);
      return run ? [{ i, devices: Number(run[1]), round: Number(run[2]) }] : [];
    });
    expect(warmUps).toHaveLength(2);
    expect(rounds.map(({ devices, round }) => [devices, round])).toEqual([[1, 1], [3, 1], [1, 2], [3, 2]]);
    expect(Math.max(...warmUps)).toBeLessThan(rounds[0].i);
    // Each size runs on servers of its own, the same in each round; only the bare Fastify route,
    // which keeps nothing, serves them all.
    const urls = new Map<string, Map<number, Set<string>>>();
    for (const line of progress.filter((l) => l.includes('(round '))) {
      const [, kind, url] = /^bench telemetry: (.*?) ?(http:\/\/[^\s,]+)/.exec(line)!;
      const devices = Number(/(\d+) devices?/.exec(line)![1]);
      const bySize = urls.get(kind || 'dhi') ?? new Map<number, Set<string>>();
      urls.set(kind || 'dhi', bySize.set(devices, (bySize.get(devices) ?? new Set()).add(url)));
    }
    expect([...urls.keys()].sort()).toEqual(['bare Fastify baseline', 'bare durable route', 'bare indexed durable route', 'dhi']);
    for (const [kind, bySize] of urls) {
      const perSize = [...bySize.values()];
      expect(perSize.map((set) => set.size)).toEqual([1, 1]);
      expect(new Set(perSize.flatMap((set) => [...set])).size).toBe(kind === 'bare Fastify baseline' ? 1 : 2);
    }
    // How far apart the sizes are: the slowest against the fastest, and the same of the bare route.
    const rates = report.fleets.map((f: { devices: number; results: { telemetry: BenchFigures } }) => ({ devices: f.devices, requestsPerSecond: f.results.telemetry.requestsPerSecond }));
    const [slowest, fastest] = [...rates].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
    const spread = report.fleetSpread.telemetry;
    expect(spread.slowest).toEqual(slowest);
    expect(spread.fastest).toEqual(fastest);
    expect(spread.spread).toBe(Math.round((1 - slowest.requestsPerSecond / fastest.requestsPerSecond) * 1000) / 1000);
    const cpu = report.fleets.map((f: { serverCpu: { telemetry: { reference: number } } }) => f.serverCpu.telemetry.reference);
    expect(spread.cpu.spread).toBe(Math.round((1 - Math.min(...cpu) / Math.max(...cpu)) * 1000) / 1000);
    expect([spread.cpu.cheapest.micros, spread.cpu.dearest.micros]).toEqual([Math.min(...cpu), Math.max(...cpu)]);
    const bare = report.fleets.map((f: { baseline: { telemetry: BenchFigures } }) => f.baseline.telemetry.requestsPerSecond);
    expect(spread.baselineSpread).toBe(Math.round((1 - Math.min(...bare) / Math.max(...bare)) * 1000) / 1000);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^telemetry +fleets: the slowest \\(${slowest.devices} devices?, ${slowest.requestsPerSecond} req/s\\) `)));
    // The same of each size's ratios to the bare route run right after it in the same round (median
    // of the rounds' ratios: of two, the higher), CPU read bare ÷ dhi.
    type Fleet = { devices: number; roundsRequestsPerSecond: { telemetry: { reference: number[]; baseline: number[] } }; serverCpu: { telemetry: { rounds: { reference: number[]; baseline: number[] } } } };
    const againstBare = (pick: (fleet: Fleet) => [number[], number[]]) => {
      const ratios = report.fleets.map((fleet: Fleet) => {
        const [over, under] = pick(fleet);
        expect(over).toHaveLength(2);
        const paired = over.map((v, i) => v / under[i]).sort((a, b) => a - b);
        return { devices: fleet.devices, ratio: Math.round(paired[1] * 1000) / 1000 };
      });
      const [lowest, highest] = ratios.sort((a: { ratio: number }, b: { ratio: number }) => a.ratio - b.ratio);
      return { lowest, highest, spread: Math.round((1 - lowest.ratio / highest.ratio) * 1000) / 1000 };
    };
    expect(spread.againstBare.throughput).toEqual(againstBare((f) => [f.roundsRequestsPerSecond.telemetry.reference, f.roundsRequestsPerSecond.telemetry.baseline]));
    expect(spread.againstBare.cpu).toEqual(againstBare((f) => [f.serverCpu.telemetry.rounds.baseline, f.serverCpu.telemetry.rounds.reference]));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`fleets against the bare route in the same round .*: throughput ratios ${(spread.againstBare.throughput.spread * 100).toFixed(1)} % apart`)));
  }, 120_000);

  it('creates a --devices fleet on a --target through the control API, spreads the requests over it and deletes it after', async () => {
    const server = await startTestServer();
    try {
      const { store } = server.ctx;
      const before = store.listDevices({ pageSize: 100, page: 0 }).totalElements;
      // The handlers call the store's writeTelemetry as they find it: this sees every message.
      const messages = new Map<string, number>();
      const values = new Set<unknown>();
      const write = store.writeTelemetry;
      store.writeTelemetry = <C>(deviceId: string, entries: Parameters<typeof write>[1], done: Written<C>, ctx: C) => {
        messages.set(deviceId, (messages.get(deviceId) ?? 0) + 1);
        values.add(entries.find((e) => e.key === 'pulseCounter')?.value);
        write(deviceId, entries, done, ctx);
      };
      const report = await benchReport({ target: server.httpUrl, devices: [3] });
      expect(report.fleets[0].results.telemetry.non2xx).toBe(0);
      const total = report.fleets[0].results.telemetry.total;
      expect(messages.size).toBe(3);
      // The fleet's unmeasured warm-up, then its round: every answered request of both reached the
      // store, and at most the 4 connections' requests in flight at the end of each besides.
      const counts = [...messages.values()];
      const sent = counts.reduce((a, b) => a + b, 0);
      const warmUp = report.fleets[0].warmUpRequests.telemetry.reference;
      expect(warmUp).toBeGreaterThan(0);
      expect(sent).toBeGreaterThanOrEqual(warmUp + total);
      expect(sent).toBeLessThanOrEqual(warmUp + total + 2 * 4);
      // Round robin, each run from the first device: the devices' counts differ by at most those in flight.
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(2 * 4);
      expect(values.size).toBeGreaterThanOrEqual(total);
      expect(store.listDevices({ pageSize: 100, page: 0 }).totalElements).toBe(before);
    } finally {
      await stopTestServer(server);
    }
  }, 120_000);

  it('refuses --token with a fleet of more than one device', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await runBench({ target: 'http://127.0.0.1:1', token: 'T', devices: [1, 10], ops: 'telemetry', duration: 1000, connections: 1, pipelining: 1, baseline: false, rounds: 1, holdPolls: 0, username: 'u', password: 'p', reportDir: tmpdir() });
      expect(process.exitCode).toBe(2);
      expect(error).toHaveBeenCalledWith(expect.stringContaining('--token names one device'));
    } finally {
      process.exitCode = undefined;
      error.mockRestore();
    }
  });

  it('refuses an unknown operation by name', () => {
    expect(parseOps('telemetry, longpoll')).toEqual(['telemetry', 'longpoll']);
    expect(() => parseOps('telemetry,mqtt')).toThrow('--ops: unknown operation "mqtt"');
  });
});
