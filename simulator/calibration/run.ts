// `dhi simulate --calibrate`: the user's run, as given, against a built-in target whose answers
// are known (known-target.ts, in a process of its own), then every figure the simulator reported
// next to what the target knows it did, with a verdict (verdict.ts). It shows how far the load
// generator can be trusted on this machine, for this scenario, before it measures a deployment.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineEvent, SimulationConfig } from '../simulation.js';
import type { Summary } from '../report/summary.js';
import { round3 } from '../report/format.js';
import { simulate } from '../simulate.js';
import type { PathName } from '../metrics.js';
import { describePlan, targetPlan, type CalibrationPlan } from './plan.js';
import type { TargetRecords } from './known-target.js';
import { startTargetProcess } from './target-process.js';
import { judge, reportedPaths, type Figure, type Reported } from './verdict.js';

export interface CalibrationOutcome {
  plan: CalibrationPlan;
  figures: Figure[];
  passed: boolean;
  summary: Summary;
  records: TargetRecords;
  /** The run's report folder; calibration.json is in it too. */
  reportDir: string;
}

export class CalibrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalibrationError';
  }
}

/** Open-model streams of the run: telemetry (split over the device groups) and the driver's two. */
function openRates(config: SimulationConfig): Reported['openRates'] {
  const { telemetry, driver } = config.scenario;
  const rates: Reported['openRates'] = {};
  if (telemetry.model === 'open') rates.telemetry = { rate: telemetry.rate, streams: Math.max(1, config.workers) };
  if (driver.rpcRate > 0) rates.rpc = { rate: driver.rpcRate, streams: 1 };
  if (driver.attrRate > 0) rates.attributeWrite = { rate: driver.attrRate, streams: 1 };
  return rates;
}

/** Run `config` (its target and control URL are replaced by the built-in target's) and judge it. */
export async function calibrate(
  config: SimulationConfig,
  plan: CalibrationPlan,
  reportDir: string,
  emit?: (event: EngineEvent) => void,
  interrupt?: AbortSignal,
): Promise<CalibrationOutcome> {
  const target = targetPlan(plan, config.durationMs, config.seed);
  if (!target) throw new CalibrationError(`a silence of ${plan.silenceMs / 1000} s needs a --duration of at least ${(2 * plan.silenceMs) / 1000} s (or --calibrate silence=0)`);
  const server = await startTargetProcess(target);
  try {
    const run = { ...config, target: server.url, controlUrl: server.url };
    const outcome = await simulate(run, [], reportDir, emit, interrupt);
    const records = await server.records();
    const { result } = outcome;
    const reported: Reported = {
      paths: reportedPaths([result.aggregate.phases.warmup, result.aggregate.phases.steady]),
      durationMs: config.durationMs,
      requestTimeoutMs: config.requestTimeoutMs,
      runMs: result.runMs,
      stopMs: result.stopMs,
      openRates: openRates(config),
    };
    const figures = judge(records, reported);
    const passed = figures.every((f) => f.pass) && !outcome.summary.interrupted;
    writeFileSync(join(outcome.reportDir, 'calibration.json'), `${JSON.stringify({ plan, target: describePlan(plan), passed, figures, silence: records.silence }, null, 2)}\n`);
    return { plan, figures, passed, summary: outcome.summary, records, reportDir: outcome.reportDir };
  } finally {
    await server.close();
  }
}

const PATH_WIDTH = 9;

function cell(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3);
}

function tolerance(f: Figure): string {
  const [low, high] = f.tolerance;
  if (low === 0 && high === 0) return 'exact';
  if (low <= -f.expected) return `at most +${cell(high)}`;
  return `${cell(low)} .. +${cell(high)}`;
}

/** The console table: one line per figure, the off ones marked, then the verdict. */
export function renderCalibration(outcome: CalibrationOutcome): string {
  const header = ['path', 'figure', 'expected', 'reported', 'difference', 'tolerance', ''];
  const rows = outcome.figures.map((f) => {
    const difference = f.reported - f.expected;
    return [f.path, f.figure, cell(f.expected), cell(f.reported), `${difference >= 0 ? '+' : ''}${cell(round3(difference))}`, tolerance(f), f.pass ? 'ok' : 'OFF'];
  });
  const widths = header.map((h, i) => Math.max(i === 0 ? PATH_WIDTH : 0, h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const off = outcome.figures.filter((f) => !f.pass);
  const paths = [...new Set(off.map((f) => f.path))] as (PathName | 'run')[];
  const verdict = off.length
    ? `verdict: ${off.length} of ${outcome.figures.length} figures outside their tolerance (${paths.join(', ')}): on this machine, for this scenario, those figures of dhi simulate say more about the simulator than about a target`
    : `verdict: all ${outcome.figures.length} figures within tolerance: on this machine, for this scenario, dhi simulate reports what the target did`;
  return [`calibration: the built-in target ${describePlan(outcome.plan)}; expected = what it did, reported = what dhi simulate measured`, line(header), ...rows.map(line), verdict].join('\n');
}
