// The run's summary: what summary.json holds, what the HTML report and the end-of-run table show,
// and what thresholds are checked against.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SimulationResult } from '../engine.js';
import { distribution, latencyStats, type LatencyStats } from '../histograms.js';
import { errorTotal, type CounterName, type ErrorClass, type PathName } from '../metrics.js';
import { profileName } from '../profiles.js';
import type { Scenario } from '../scenario.js';
import { evaluateThresholds, type PathFigures, type Threshold, type ThresholdOutcome } from '../thresholds.js';
import { renderHtml } from './html.js';

export interface PathSummary extends PathFigures {
  errorsByClass: Partial<Record<ErrorClass, number>>;
  latencyMs: LatencyStats;
  /** [percentile, ms] points of the latency distribution. */
  distribution: [number, number][];
  /** Open-model paths are timed from the intended send time (coordinated-omission corrected). */
  correctedForCoordinatedOmission: boolean;
}

export interface Summary {
  tool: 'dhi simulate';
  startedAt: string;
  durationMs: number;
  runMs: number;
  target: string;
  controlUrl: string;
  scenario: Scenario & { profileName: string };
  devices: number;
  workers: number;
  seed: number;
  rampPerSecond: number | null;
  model: 'open' | 'closed' | 'none';
  fleet: SimulationResult['fleet'];
  paths: Partial<Record<PathName, PathSummary>>;
  timeline: { seconds: number; paths: Partial<Record<PathName, { ok: number[]; errors: number[]; p99Ms: number[] }>> };
  counters: Partial<Record<CounterName, number>>;
  simulator: {
    processes: number;
    requests: number;
    cpuMs: number;
    /** The simulator's own CPU time per request it made or answered, in microseconds. */
    cpuMicrosPerRequest: number;
    maxRssBytes: number;
    sourceAddresses: string[];
  };
  thresholds: ThresholdOutcome[];
  passed: boolean;
}

// Paths whose requests the simulator itself sends (poll answers are counted through counters).
const SENT_PATHS: readonly PathName[] = ['telemetry', 'attributeWrite', 'rpc', 'rpcReply', 'clientRpc', 'firmware'];
const POLL_PATHS: readonly PathName[] = ['attributePush', 'rpcDelivery'];

export function buildSummary(result: SimulationResult, thresholds: Threshold[]): Summary {
  const { config, aggregate } = result;
  const seconds = result.runMs / 1000;
  const openModel = config.scenario.telemetry.model === 'open';
  const paths: Partial<Record<PathName, PathSummary>> = {};
  const timeline: Summary['timeline'] = { seconds: Math.ceil(seconds), paths: {} };
  let requests = 0;
  for (const [name, totals] of aggregate.paths) {
    const errors = errorTotal(totals.errors);
    paths[name] = {
      count: totals.ok,
      errors,
      errorsByClass: totals.errors,
      rate: Math.round((totals.ok / seconds) * 100) / 100,
      latencyMs: latencyStats(totals.histogram),
      distribution: distribution(totals.histogram),
      correctedForCoordinatedOmission: (openModel && name === 'telemetry') || name === 'rpc' || name === 'attributeWrite',
    };
    timeline.paths[name] = { ok: totals.okPerSecond, errors: totals.errorsPerSecond, p99Ms: totals.p99PerSecond };
    if (SENT_PATHS.includes(name)) requests += totals.ok + errors;
    if (POLL_PATHS.includes(name)) requests += errors;
  }
  const counters = { ...aggregate.counters };
  requests += (counters.attributePolls ?? 0) + (counters.rpcPolls ?? 0) + (counters.pollTimeouts ?? 0);
  const outcomes = evaluateThresholds(thresholds, paths);
  return {
    tool: 'dhi simulate',
    startedAt: result.startedAt,
    durationMs: config.durationMs,
    runMs: Math.round(result.runMs),
    target: config.target,
    controlUrl: config.controlUrl,
    scenario: { ...config.scenario, profileName: profileName(config.scenario.profile) },
    devices: config.devices,
    workers: config.workers,
    seed: config.seed,
    rampPerSecond: config.rampPerSecond,
    model: config.scenario.telemetry.model === 'off' ? 'none' : config.scenario.telemetry.model,
    fleet: result.fleet,
    paths,
    timeline,
    counters,
    simulator: {
      processes: result.simulator.processes,
      requests,
      cpuMs: Math.round(result.simulator.cpuMicros / 1000),
      cpuMicrosPerRequest: requests ? Math.round((result.simulator.cpuMicros / requests) * 10) / 10 : 0,
      maxRssBytes: result.simulator.maxRssBytes,
      sourceAddresses: result.simulator.sourceAddresses,
    },
    thresholds: outcomes,
    passed: outcomes.every((o) => o.passed),
  };
}

/** `reports/simulate/<timestamp>/{summary.json,report.html}`; returns the folder. */
export function writeReports(summary: Summary, reportDir: string): string {
  const stamp = summary.startedAt.replace(/[:.]/g, '-');
  const dir = join(reportDir, stamp);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(dir, 'report.html'), renderHtml(summary));
  return dir;
}
