// The calibration: its plan, its judgement (exact counts and classes; latencies within the
// command's tolerances, computed here on made-up figures, never timed), and one real run against
// the built-in target whose counts must match what the target did, request for request.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CALIBRATION, parseCalibration, targetPlan } from '../calibration/plan.js';
import type { TargetRecords } from '../calibration/known-target.js';
import { calibrate, renderCalibration } from '../calibration/run.js';
import { startTargetProcess } from '../calibration/target-process.js';
import { judge, LATENCY_TOLERANCE_MS, type Figure, type Reported } from '../calibration/verdict.js';
import { createHistogram, encodeHistogram, recordMicros, type Histogram } from '../histograms.js';
import type { Outcome } from '../metrics.js';
import { applyOverrides, builtinScenario } from '../scenario.js';
import type { SimulationConfig } from '../simulation.js';

function histogram(ms: number[]): Histogram {
  const h = createHistogram();
  for (const v of ms) recordMicros(h, v * 1000);
  return h;
}

/** The command lines (argument lists) of this process's children, read from /proc. */
function childCommandLines(): string[][] {
  const lines: string[][] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const ppid = /^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (Number(ppid) === process.pid) lines.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
    } catch {
      // gone meanwhile
    }
  }
  return lines;
}

const repeat = (value: number, n: number) => Array.from({ length: n }, () => value);

/** What the target did in a made-up run: 90 answered after 20 ms, 8 refused, 2 never answered (held until the client gave up at 1 s). */
function records(): TargetRecords {
  const held = [...repeat(20, 90), ...repeat(20, 8), 1000, 1000];
  return {
    plan: { latencyMs: 20, silence: { afterMs: 1000, forMs: 1000 }, errorShare: 0.08, hangShare: 0.02, seed: 1 },
    silence: { from: 5000, to: 6000 },
    paths: { telemetry: { outcomes: { ok: 90, 'status 503': 8, timeout: 2 }, held: encodeHistogram(histogram(held)), arrivedInSilence: 100 } },
    pushesLost: 0,
    pollTimeouts: 0,
  };
}

/** What the simulator reported for it; `latencyOffsetMs` is added to every value it timed. */
function reported(outcomes: Partial<Record<Outcome, number>>, latencyOffsetMs = 0.4): Reported {
  const values = [...repeat(20, 90), ...repeat(20, 8), 1000, 1000].map((v) => v + latencyOffsetMs);
  return {
    paths: { telemetry: { outcomes, histogram: histogram(values), lag: histogram(repeat(0.2, 100)), queued: 0 } },
    durationMs: 10_000,
    requestTimeoutMs: 1000,
    runMs: 10_003,
    stopMs: 990,
    openRates: { telemetry: { rate: 100, streams: 1 } },
  };
}

const byName = (figures: Figure[], name: string) => figures.find((f) => f.figure === name)!;

describe('calibration plan', () => {
  it('reads latency, silence, errors and hang, each optional, and refuses what it does not know', () => {
    expect(parseCalibration(true)).toEqual(DEFAULT_CALIBRATION);
    expect(parseCalibration('latency=5ms,errors=1%')).toEqual({ ...DEFAULT_CALIBRATION, latencyMs: 5, errorShare: 0.01 });
    expect(parseCalibration('silence=0,hang=0%')).toMatchObject({ silenceMs: 0, hangShare: 0 });
    expect(() => parseCalibration('latency=20ms,jitter=3ms')).toThrow('unknown calibration setting "jitter"');
    expect(() => parseCalibration('errors=ten')).toThrow('errors= takes a share such as 10%');
    expect(() => parseCalibration('errors=60%,hang=50%')).toThrow('more than 100%');
  });

  it('puts the silence in the middle of the run, and refuses a run too short to hold it', () => {
    expect(targetPlan(DEFAULT_CALIBRATION, 10_000, 7)).toMatchObject({ latencyMs: 20, silence: { afterMs: 4000, forMs: 2000 }, seed: 7 });
    expect(targetPlan({ ...DEFAULT_CALIBRATION, silenceMs: 0 }, 1000, 1)?.silence).toBeNull();
    expect(targetPlan(DEFAULT_CALIBRATION, 3000, 1)).toBeNull();
  });
});

describe('calibration verdict', () => {
  it('passes a run whose counts match exactly and whose latencies exceed the target by less than the tolerances', () => {
    const figures = judge(records(), reported({ ok: 90, 'status 503': 8, timeout: 2 }));
    expect(figures.filter((f) => !f.pass)).toEqual([]);
    expect(figures.map((f) => f.figure)).toEqual([
      'ok', 'status 503', 'timeout', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'mean ms',
      'arrived in the silence', 'queued in the simulator', 'send lag p99 ms', 'ended after ms (at most duration + request timeout)',
    ]);
    expect(byName(figures, 'ok')).toMatchObject({ expected: 90, reported: 90, tolerance: [0, 0] });
  });

  it('fails every count that is off by one, and a request classed otherwise than the target answered it', () => {
    const figures = judge(records(), reported({ ok: 90, 'status 503': 7, reset: 1, timeout: 2 }));
    const off = figures.filter((f) => !f.pass).map((f) => [f.figure, f.expected, f.reported]);
    expect(off).toEqual([['reset', 0, 1], ['status 503', 8, 7]]);
  });

  it('counts a request the simulator cut at the end of the run as the target saw it: a client that gave up', () => {
    const figures = judge(records(), reported({ ok: 90, 'status 503': 8, timeout: 1, unfinished: 1 }));
    expect(byName(figures, 'timeout')).toMatchObject({ expected: 2, reported: 2, pass: true });
    expect(figures.some((f) => f.figure === 'unfinished')).toBe(false);
  });

  it('fails a latency above the target by more than its tolerance, or below it beyond the histograms resolution', () => {
    const late = judge(records(), reported({ ok: 90, 'status 503': 8, timeout: 2 }, LATENCY_TOLERANCE_MS.p50 + 0.5));
    expect(byName(late, 'p50 ms').pass).toBe(false);
    expect(byName(late, 'p99 ms').pass).toBe(true); // 1.5 ms on a 1 s p99 is within its 3 ms (+ 0.2 %)
    const early = judge(records(), reported({ ok: 90, 'status 503': 8, timeout: 2 }, -0.5));
    expect(byName(early, 'p50 ms').pass).toBe(false);
  });

  it('fails a simulator that queued, sent late, let fewer arrive in the silence, or ended after duration + request timeout', () => {
    const r = reported({ ok: 90, 'status 503': 8, timeout: 2 });
    r.paths.telemetry!.queued = 3;
    r.paths.telemetry!.lag = histogram(repeat(2.5, 100));
    r.stopMs = 1500;
    const known = records();
    known.paths.telemetry!.arrivedInSilence = 8; // 100/s for 1 s: 100 were due
    const off = judge(known, r).filter((f) => !f.pass).map((f) => f.figure);
    expect(off).toEqual(['arrived in the silence', 'queued in the simulator', 'send lag p99 ms', 'ended after ms (at most duration + request timeout)']);
  });
});

describe('a calibration run', () => {
  it('runs the target in a process of its own without V8 optimizing compilers', async () => {
    const target = await startTargetProcess({ latencyMs: 1, silence: null, errorShare: 0, hangShare: 0, seed: 1 });
    try {
      const lines = childCommandLines().filter((args) => args.includes('--dhi-calibration-target'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toEqual(expect.arrayContaining(['--no-turbofan', '--no-maglev']));
    } finally {
      await target.close();
    }
  }, 30_000);

  it('counts and classes every request as the built-in target answered it, and ends within the request timeout', async () => {
    const config: SimulationConfig = {
      target: 'http://127.0.0.1', controlUrl: 'http://127.0.0.1', username: 'u', password: 'p', devices: 20, durationMs: 3000,
      scenario: applyOverrides(builtinScenario('telemetry'), { rate: 100 }), rampPerSecond: null, provision: null, tokensFile: null,
      workers: 0, seed: 3, keepDevices: false, insecure: false, warmupMs: 0, maxConnectionsPerDevice: 16, requestTimeoutMs: 2000,
    };
    // The silence is shorter than the request timeout: what it holds is answered, not given up on.
    const plan = { latencyMs: 10, silenceMs: 1000, errorShare: 0.1, hangShare: 0.05 };
    const outcome = await calibrate(config, plan, mkdtempSync(join(tmpdir(), 'dhi-calibrate-')));
    const counts = outcome.figures.filter((f) => f.path === 'telemetry' && ['ok', 'status 503', 'timeout'].includes(f.figure));
    expect(counts).toHaveLength(3);
    for (const f of counts) expect(f).toMatchObject({ pass: true, reported: f.expected });
    // No class the target did not give: the simulator saw every answer, and every unanswered request ended as a timeout.
    expect(outcome.figures.filter((f) => f.path === 'telemetry' && f.tolerance[1] === 0 && f.expected === 0 && f.reported > 0 && f.figure !== 'queued in the simulator')).toEqual([]);
    const all = outcome.records.paths.telemetry!.outcomes;
    expect((all.ok ?? 0) + (all['status 503'] ?? 0) + (all.timeout ?? 0)).toBeGreaterThan(250); // 100/s for 3 s
    expect(all.timeout).toBeGreaterThan(0);
    // The hung requests did not hold the run: it stopped once they reached the request timeout.
    expect(outcome.summary.stopMs).toBeLessThan(2000 + 1000);
    const saved = JSON.parse(readFileSync(join(outcome.reportDir, 'calibration.json'), 'utf8'));
    expect(saved.figures).toHaveLength(outcome.figures.length);
    expect(renderCalibration(outcome)).toContain('verdict:');
  }, 60_000);
});
