// dhi bench --simulator: how a side's cost is read from its window, how rounds and ratios are
// taken, and the whole measurement end to end, briefly (it measures; speed is never asserted here).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runBench } from '../bench.js';
import { pairedRatio, timings, windowCost, type CostFigures } from '../bench-cost.js';

describe('dhi bench --simulator', () => {
  it("reads a side over its floor round by round, as the median of each round's own ratio", () => {
    const cost = (cpuMicrosPerRequest: number) => ({ cpuMicrosPerRequest }) as CostFigures;
    // The machine ran slower in the first round, both sides alike. The ratio of the medians would be
    // 66 / 60 = 1.1: the second round's simulator over the third round's floor.
    const simulator = [90, 66, 55].map(cost);
    const floor = [75, 44, 60].map(cost);
    expect(pairedRatio(simulator, floor)).toEqual({ floorRatio: 1.2, floorRatioRounds: [1.2, 1.5, 0.92] });
    // The median is taken before rounding; an even count takes the upper of the middle two, as medianRound does.
    expect(pairedRatio([100, 130, 121, 111].map(cost), [100, 100, 100, 100].map(cost))).toEqual({ floorRatio: 1.21, floorRatioRounds: [1, 1.3, 1.21, 1.11] });
    expect(pairedRatio([50.5].map(cost), [40].map(cost))).toEqual({ floorRatio: 1.26, floorRatioRounds: [1.26] });
    // A floor that cost nothing (a window too short to measure) gives no ratio rather than Infinity.
    expect(pairedRatio([cost(60), cost(70), cost(80)], [cost(0), cost(50), cost(50)]).floorRatioRounds).toEqual([0, 1.4, 1.6]);
  });

  it('warms the mixed sides up for 3x the bench duration and begins their window past their 10 s telemetry period (12 s at the default 10 s)', () => {
    expect(timings(10_000)).toEqual({
      telemetry: { warmUpMs: 10_000, settleMs: 2000, durationMs: 10_000 },
      mixed: { warmUpMs: 30_000, settleMs: 12_000, durationMs: 10_000 },
    });
    // A short --duration (the tests') shortens the mixed runs in proportion.
    expect(timings(1500).mixed).toEqual({ warmUpMs: 4500, settleMs: 1800, durationMs: 1500 });
  });

  it("reads a side's cost over its window: the CPU and the requests counted between the window's two readings", () => {
    const timing = { warmUpMs: 30_000, settleMs: 12_000, durationMs: 10_000 };
    // 7,084 requests in a 23 s load, but its rate was not steady: 2,800 ended between the window's
    // readings (10,004 ms apart), which cost 308 ms: 110 µs a request (the run's rate times the
    // window, 3,080, would have said 100).
    const window = { cpuMicros: 308_000, requests: 2800, ms: 10_004, majorGcs: 1 };
    const run = { requests: 7084, loadMs: 23_000, cpuMicros: 900_000, window };
    const none = { cpuMicros: 0, requests: 0, ms: 0, majorGcs: 0 };
    expect(windowCost({ requests: 9210, loadMs: 30_000, cpuMicros: 1, window: none }, run, timing)).toEqual({
      requests: 2800,
      cpuMs: 308,
      cpuMicrosPerRequest: 110,
      // 900 ms less 7,084 requests at 110 µs.
      fixedCpuMs: 121,
      wholeRunMicrosPerRequest: 127,
      window: { fromMs: 12_000, durationMs: 10_000, ms: 10_004, requests: 2800, majorGcs: 1 },
      warmUp: { durationMs: 30_000, requests: 9210 },
    });
    // A paced side's send lag is the measured run's.
    const sendLagMs = { p50: 0.02, p99: 0.33, max: 2.1 };
    expect(windowCost(run, { ...run, sendLagMs }, timing).sendLagMs).toEqual(sendLagMs);
    // A window in which no request ended gives no cost rather than NaN or Infinity.
    expect(windowCost(run, { requests: 0, loadMs: 23_000, cpuMicros: 5000, window: { ...window, requests: 0 } }, timing)).toMatchObject({ requests: 0, cpuMicrosPerRequest: 0, wholeRunMicrosPerRequest: 0 });
  });

  it("measures dhi simulate's CPU per request next to autocannon's on the same telemetry load, and on the mixed scenario", async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'dhi-bench-'));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    let printed: string[];
    try {
      await runBench({ ops: '', duration: 1500, connections: 4, pipelining: 1, baseline: false, rounds: 1, holdPolls: 0, username: 'tenant@thingsboard.org', password: 'tenant', reportDir, simulator: 200 });
    } finally {
      printed = log.mock.calls.map((call) => String(call[0]));
      log.mockRestore();
    }
    const file = readdirSync(reportDir).find((f) => f.endsWith('.json'))!;
    const { simulatorCost } = JSON.parse(readFileSync(join(reportDir, file), 'utf8'));
    expect(simulatorCost).toMatchObject({ rate: 200, rounds: 1 });
    for (const side of [simulatorCost.autocannon, simulatorCost.pacedFloor, simulatorCost.simulator, simulatorCost.mixed, simulatorCost.mixed.floor]) {
      expect(side.roundsMicrosPerRequest).toEqual([side.cpuMicrosPerRequest]);
      expect(side.roundsMajorGcs).toEqual([side.window.majorGcs]);
    }
    for (const side of [simulatorCost.autocannon, simulatorCost.pacedFloor, simulatorCost.simulator]) {
      expect(side.warmUp).toMatchObject({ durationMs: 1500 });
      expect(side.window).toMatchObject({ fromMs: 2000, durationMs: 1500 });
    }
    for (const side of [simulatorCost.mixed, simulatorCost.mixed.floor]) {
      expect(side.warmUp).toMatchObject({ durationMs: 4500 });
      expect(side.window).toMatchObject({ fromMs: 1800, durationMs: 1500 });
    }
    for (const side of [simulatorCost.autocannon, simulatorCost.pacedFloor, simulatorCost.simulator, simulatorCost.mixed, simulatorCost.mixed.floor]) {
      expect(side.warmUp.requests).toBeGreaterThan(0);
      // The requests counted in the window are the figure's.
      expect(side.requests).toBeGreaterThan(0);
      expect(side.window.requests).toBe(side.requests);
      expect(Number.isInteger(side.window.majorGcs)).toBe(true);
      // The window's CPU over its requests (cpuMs is rounded to the millisecond).
      expect(Math.abs(side.cpuMicrosPerRequest - (side.cpuMs * 1000) / side.requests)).toBeLessThan(500 / side.requests + 0.1);
    }
    const ratio = (of: { cpuMicrosPerRequest: number }, to: { cpuMicrosPerRequest: number }) => Math.round((of.cpuMicrosPerRequest / to.cpuMicrosPerRequest) * 100) / 100;
    expect(simulatorCost.ratio).toBe(ratio(simulatorCost.simulator, simulatorCost.autocannon));
    // One round: its own ratio is the median.
    expect(simulatorCost.floorRatio).toBe(ratio(simulatorCost.simulator, simulatorCost.pacedFloor));
    expect(simulatorCost.floorRatioRounds).toEqual([simulatorCost.floorRatio]);
    // The floor sends over as many devices' connections as the simulator.
    expect(simulatorCost.pacedFloor).toMatchObject({ devices: 100 });
    // The floor's warm-up paces at the telemetry rate; the mixed side's at its own rate over its warm-up,
    // over its 500 devices' connections, and so do its measured runs.
    expect(simulatorCost.mixed.floor.warmUp.requests).toBe(200 * 4.5);
    const { mixed } = simulatorCost;
    expect(mixed.floor).toMatchObject({ devices: 500, rate: Math.max(1, Math.round((mixed.warmUp.requests * 1000) / 4500)) });
    expect(mixed.floorRatio).toBe(ratio(mixed, mixed.floor));
    expect(mixed.floorRatioRounds).toEqual([mixed.floorRatio]);
    // Each paced side reports its send lag beside the ratio (autocannon does not pace each request).
    expect(simulatorCost.autocannon.sendLagMs).toBeUndefined();
    for (const side of [simulatorCost.pacedFloor, simulatorCost.simulator, mixed, mixed.floor]) {
      expect(Object.keys(side.sendLagMs)).toEqual(['p50', 'p99', 'max']);
      expect(side.sendLagMs.p50).toBeLessThanOrEqual(side.sendLagMs.p99);
      expect(side.sendLagMs.p99).toBeLessThanOrEqual(side.sendLagMs.max);
    }
    const line = (start: string) => printed.find((l) => l.startsWith(start))!;
    const { pacedFloor, simulator } = simulatorCost;
    expect(line('CPU per request on telemetry')).toContain(`simulate / paced floor ${simulatorCost.floorRatio} (send lag p99: floor ${pacedFloor.sendLagMs.p99} ms, dhi simulate ${simulator.sendLagMs.p99} ms)`);
    expect(line('CPU per request, mixed scenario')).toContain(`mixed / floor ${mixed.floorRatio} (send lag p99: floor ${mixed.floor.sendLagMs.p99} ms, dhi simulate's telemetry ${mixed.sendLagMs.p99} ms)`);
  }, 180_000);

});
