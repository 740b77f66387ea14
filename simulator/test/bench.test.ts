// dhi bench end to end, briefly: it measures, it does not judge (speed is never asserted here).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { medianRun, parseOps, runBench, serverCpu, type BenchFigures } from '../bench.js';
import { medianRound, type CostFigures } from '../bench-cost.js';

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
    expect(report.baseline.telemetry.total).toBeGreaterThan(0);
    expect(report.ratio.telemetry).toBeGreaterThan(0);
    // Three alternating rounds per side; the figures kept are the median round's.
    expect(report.roundsRequestsPerSecond.telemetry.reference).toHaveLength(3);
    expect(report.roundsRequestsPerSecond.telemetry.baseline).toHaveLength(3);
    expect([...report.roundsRequestsPerSecond.telemetry.reference].sort((a: number, b: number) => a - b)[1]).toBe(report.results.telemetry.requestsPerSecond);
    // Both servers are child processes of the bench: their CPU per request is measured every round.
    const cpu = report.serverCpu.telemetry;
    expect(cpu.rounds.reference).toHaveLength(3);
    expect(cpu.rounds.baseline).toHaveLength(3);
    for (const value of [...cpu.rounds.reference, ...cpu.rounds.baseline]) expect(value).toBeGreaterThan(0);
    expect(cpu.ratio).toBe(Math.round((cpu.baseline / cpu.reference) * 1000) / 1000);
    // The held polls were all open on the server while telemetry was measured.
    expect(report.heldPolls.open).toBe(50);
    expect(report.heldPolls.rssHoldingBytes).toBeGreaterThan(0);
    expect(report.heldPolls.telemetry.total).toBeGreaterThan(0);
    expect(report.heldPolls.telemetry.serverCpuMicrosPerRequest).toBeGreaterThan(0);
  }, 120_000); // two server processes start from TypeScript sources: slow on a busy machine

  it('takes the median round', () => {
    const run = (requestsPerSecond: number) => ({ requestsPerSecond }) as BenchFigures;
    expect(medianRun([run(5), run(9), run(7)]).requestsPerSecond).toBe(7);
    const cost = (cpuMicrosPerRequest: number, requests: number) => ({ cpuMicrosPerRequest, requests }) as CostFigures;
    // The median round's own figures, and every round's cost in the order run.
    expect(medianRound([cost(80, 1), cost(40, 2), cost(60, 3)])).toMatchObject({ cpuMicrosPerRequest: 60, requests: 3, roundsMicrosPerRequest: [80, 40, 60] });
  });

  it("takes each side's median server CPU, whichever round had the median rate, and reads the ratio like the throughput's", () => {
    const run = (requestsPerSecond: number, serverCpuMicrosPerRequest?: number) => ({ requestsPerSecond, serverCpuMicrosPerRequest }) as BenchFigures;
    expect(serverCpu([run(100, 60), run(90, 50), run(120, 70)], [run(200, 30), run(210, 40), run(190, 20)])).toEqual({
      reference: 60, baseline: 30, ratio: 0.5, rounds: { reference: [60, 50, 70], baseline: [30, 40, 20] },
    });
    // A server the bench did not start (--target) has no CPU figure, and then no comparison.
    expect(serverCpu([run(100), run(90)], [run(200, 30), run(210, 40)])).toBeUndefined();
  });

  it("measures dhi simulate's CPU per request next to autocannon's on the same telemetry load, and on the mixed scenario", async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'dhi-bench-'));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await runBench({ ops: '', duration: 1500, connections: 4, pipelining: 1, baseline: false, rounds: 1, holdPolls: 0, username: 'tenant@thingsboard.org', password: 'tenant', reportDir, simulator: 200 });
    } finally {
      log.mockRestore();
    }
    const file = readdirSync(reportDir).find((f) => f.endsWith('.json'))!;
    const { simulatorCost } = JSON.parse(readFileSync(join(reportDir, file), 'utf8'));
    expect(simulatorCost).toMatchObject({ rate: 200, rounds: 1 });
    for (const side of [simulatorCost.autocannon, simulatorCost.pacedFloor, simulatorCost.simulator]) expect(side.roundsMicrosPerRequest).toEqual([side.cpuMicrosPerRequest]);
    for (const side of [simulatorCost.autocannon, simulatorCost.pacedFloor, simulatorCost.simulator, simulatorCost.mixed]) {
      // Two runs per side, the long one longer by the bench duration, so with more requests.
      expect(side.short.requests).toBeGreaterThan(0);
      expect(side.requests).toBeGreaterThan(side.short.requests);
      // The marginal cost is the difference of the two runs' CPU over the difference of their requests.
      const marginal = ((side.cpuMs - side.short.cpuMs) * 1000) / (side.requests - side.short.requests);
      // cpuMs is rounded to the millisecond on both runs.
      expect(Math.abs(side.cpuMicrosPerRequest - marginal)).toBeLessThan(1000 / (side.requests - side.short.requests) + 0.1);
      expect(Math.abs(side.wholeRunMicrosPerRequest - (side.cpuMs * 1000) / side.requests)).toBeLessThan(500 / side.requests + 0.1);
    }
    const ratio = (of: { cpuMicrosPerRequest: number }, to: { cpuMicrosPerRequest: number }) => Math.round((of.cpuMicrosPerRequest / to.cpuMicrosPerRequest) * 100) / 100;
    expect(simulatorCost.ratio).toBe(ratio(simulatorCost.simulator, simulatorCost.autocannon));
    expect(simulatorCost.floorRatio).toBe(ratio(simulatorCost.simulator, simulatorCost.pacedFloor));
    // The floor runs with the simulator's slots and connections, and every request it sent was answered.
    expect(simulatorCost.pacedFloor).toMatchObject({ slotMs: 5, connections: 8 });
    expect(simulatorCost.pacedFloor.requests).toBe(200 * (1.5 + 2));
  }, 180_000);

  it('refuses an unknown operation by name', () => {
    expect(parseOps('telemetry, longpoll')).toEqual(['telemetry', 'longpoll']);
    expect(() => parseOps('telemetry,mqtt')).toThrow('--ops: unknown operation "mqtt"');
  });
});
