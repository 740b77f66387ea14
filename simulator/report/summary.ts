// The run's summary: what summary.json holds, what the HTML report and the end-of-run table show,
// and what thresholds are checked against (the steady state; the warm-up is reported apart).
import type { SimulationResult } from '../simulation.js';
import { distribution, latencyStats, percentile, type LatencyStats } from '../histograms.js';
import { COUNTERS, errorTotal, PATHS, type CounterName, type ErrorClass, type PathName, type PathTotals } from '../metrics.js';
import { profileName } from '../profiles.js';
import { requestsEnded } from '../requests-ended.js';
import type { Scenario } from '../scenario.js';
import { evaluateThresholds, type PathFigures, type Threshold, type ThresholdOutcome } from '../thresholds.js';

/** What the simulator itself added on a path: how late its requests left, and the backlog. */
export interface SendSummary {
  /** How late requests left after their intended time (ms), backlog included. */
  lagMs: { p50: number; p99: number; max: number };
  /** Requests that waited in a device's backlog for a connection (at --max-connections-per-device, or the process's descriptor budget), and how long. */
  queued: { count: number; meanMs: number; maxMs: number };
  /**
   * The generator, not the target, limited this path: a request waited in a backlog or was
   * dropped, or requests left late by more than 1 ms at the 99th percentile and by more than 5 %
   * of the path's p99 latency. `reason` says which.
   */
  generatorLimited: boolean;
  reason?: string;
}

export interface PathSummary extends PathFigures {
  errorsByClass: Partial<Record<ErrorClass, number>>;
  /** The simulator's own share of the time; absent on paths it does not send (poll answers). */
  sending?: SendSummary;
  /** Every timed outcome, errors included (dropped arrivals are never sent, so never timed). */
  latencyMs: LatencyStats;
  /** [percentile, ms] points of the latency distribution. */
  distribution: [number, number][];
  /** How the values were timed: from an intended send time (open model) or from the actual send. */
  timedFrom: { intended: number; sent: number };
  /** True when every value was timed from its intended send time. */
  correctedForCoordinatedOmission: boolean;
}

export type PathSummaries = Partial<Record<PathName, PathSummary>>;

export interface Summary {
  tool: 'dhi simulate';
  startedAt: string;
  durationMs: number;
  runMs: number;
  /** The user stopped the run early (Ctrl-C): it did not pass, whatever the thresholds say. */
  interrupted: boolean;
  target: string;
  controlUrl: string;
  scenario: Scenario & { profileName: string };
  devices: number;
  workers: number;
  seed: number;
  rampPerSecond: number | null;
  model: 'open' | 'closed' | 'none';
  fleet: SimulationResult['fleet'];
  /** Requests started before the steady state: measured, reported here, kept out of `paths`. */
  warmup: { ms: number; until: 'every device online' | 'the --warmup time'; paths: PathSummaries };
  /** The steady state: requests started from the end of the warm-up until the load stopped; a rate is the completions inside it over `steadyMs`. */
  steadyMs: number;
  /** From the end of the load until every request had ended: at most --request-timeout. */
  stopMs: number;
  requestTimeoutMs: number;
  maxConnectionsPerDevice: number;
  paths: PathSummaries;
  timeline: { seconds: number; paths: Partial<Record<PathName, { ok: number[]; errors: number[]; p99Ms: number[] }>> };
  counters: Partial<Record<CounterName, number>>;
  /** Shared-attribute changes of the whole run: written = pushed + lost + unconfirmed. */
  attributeChanges: { written: number; pushed: number; lost: number; unconfirmed: number };
  /** Which clocks each latency compares. */
  clocks: string;
  simulator: {
    processes: number;
    requests: number;
    cpuMs: number;
    /** The simulator's own CPU time per request it made or answered, in microseconds. */
    cpuMicrosPerRequest: number;
    maxRssBytes: number;
    sourceAddresses: string[];
    /** Connections the devices held at most at once (summed over processes), and opened in all (a server's keep-alive timeout shorter than a device's interval means one per request). */
    peakConnections: number;
    connectionsOpened: number;
    /** Paths where the simulator, not the target, was the limit (see each path's `sending`). */
    limitedPaths: PathName[];
  };
  thresholds: ThresholdOutcome[];
  passed: boolean;
}

export const CLOCKS =
  'Every latency is the difference of two readings of one clock: the simulator machine\'s CLOCK_MONOTONIC. ' +
  'attributePush and rpcDelivery: the driver reads it before sending the write or RPC (in the main process), the device when its poll answers (in a worker); ' +
  'other paths read it twice in the process that sends the request. The server\'s clock is never used.';

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Send lag beyond this (ms, at the 99th percentile) and beyond LAG_SHARE of the path's p99 counts as the generator's limit. */
const LAG_LIMIT_MS = 1;
const LAG_SHARE = 0.05;

export function sendSummary(totals: PathTotals, p99Ms: number): SendSummary | undefined {
  if (!totals.lag.totalCount && !totals.errors.dropped) return undefined;
  const lag = { p50: round(percentile(totals.lag, 50) / 1000, 3), p99: round(percentile(totals.lag, 99) / 1000, 3), max: round(totals.lag.maxValue / 1000, 3) };
  const queued = { count: totals.queued, meanMs: totals.queued ? round(totals.queuedMs / totals.queued, 3) : 0, maxMs: round(totals.queuedMaxMs, 3) };
  const reasons: string[] = [];
  if (queued.count) reasons.push(`${queued.count} request(s) waited for a connection (up to ${queued.maxMs} ms)`);
  if (totals.errors.dropped) reasons.push(`${totals.errors.dropped} request(s) never left (dropped)`);
  if (lag.p99 > LAG_LIMIT_MS && lag.p99 > LAG_SHARE * p99Ms) reasons.push(`requests left up to ${lag.p99} ms late (p99)`);
  return { lagMs: lag, queued, generatorLimited: reasons.length > 0, ...(reasons.length ? { reason: reasons.join('; ') } : {}) };
}

function summarize(phase: Map<PathName, PathTotals>, ms: number, rateFromWindow: boolean): PathSummaries {
  const out: PathSummaries = {};
  for (const name of PATHS) {
    const totals = phase.get(name);
    if (!totals) continue;
    const timed = totals.intended + totals.sent;
    const latencyMs = latencyStats(totals.histogram);
    const sending = sendSummary(totals, latencyMs.p99);
    out[name] = {
      count: totals.ok,
      errors: errorTotal(totals.errors),
      errorsByClass: Object.fromEntries(Object.entries(totals.errors).sort(([a], [b]) => a.localeCompare(b))),
      rate: ms > 0 ? round(((rateFromWindow ? totals.okInWindow : totals.ok) / ms) * 1000, 2) : 0,
      latencyMs,
      distribution: distribution(totals.histogram),
      timedFrom: { intended: totals.intended, sent: totals.sent },
      correctedForCoordinatedOmission: timed > 0 && totals.intended === timed,
      ...(sending ? { sending } : {}),
    };
  }
  return out;
}

export function buildSummary(result: SimulationResult, thresholds: Threshold[]): Summary {
  const { config, aggregate } = result;
  const steadyMs = result.runMs - result.warmupMs;
  const paths = summarize(aggregate.phases.steady, steadyMs, true);
  const warmupPaths = summarize(aggregate.phases.warmup, result.warmupMs, false);
  const timeline: Summary['timeline'] = { seconds: Math.ceil(result.runMs / 1000), paths: {} };
  for (const name of PATHS) {
    const t = aggregate.timelines.get(name);
    if (t) timeline.paths[name] = { ok: t.okPerSecond, errors: t.errorsPerSecond, p99Ms: t.p99PerSecond };
  }
  const counters: Partial<Record<CounterName, number>> = {};
  for (const name of COUNTERS) if (aggregate.counters[name] !== undefined) counters[name] = aggregate.counters[name];
  const written = (['warmup', 'steady'] as const).reduce((n, phase) => {
    const w = aggregate.phases[phase].get('attributeWrite');
    return n + (w ? w.ok + errorTotal(w.errors) - (w.errors.dropped ?? 0) : 0);
  }, 0);
  const pushed = counters.updatesDelivered ?? 0;
  const lost = counters.attributeLost ?? 0;
  const requests = requestsEnded([Object.fromEntries(aggregate.phases.steady), Object.fromEntries(aggregate.phases.warmup)], counters);
  const outcomes = evaluateThresholds(thresholds, paths);
  return {
    tool: 'dhi simulate',
    startedAt: result.startedAt,
    durationMs: config.durationMs,
    runMs: Math.round(result.runMs),
    interrupted: result.interrupted,
    target: config.target,
    controlUrl: config.controlUrl,
    scenario: { ...config.scenario, profileName: profileName(config.scenario.profile) },
    devices: config.devices,
    workers: config.workers,
    seed: config.seed,
    rampPerSecond: config.rampPerSecond,
    model: config.scenario.telemetry.model === 'off' ? 'none' : config.scenario.telemetry.model,
    fleet: result.fleet,
    warmup: { ms: Math.round(result.warmupMs), until: config.warmupMs === null ? 'every device online' : 'the --warmup time', paths: warmupPaths },
    steadyMs: Math.round(result.runMs) - Math.round(result.warmupMs),
    stopMs: Math.round(result.stopMs),
    requestTimeoutMs: config.requestTimeoutMs,
    maxConnectionsPerDevice: config.maxConnectionsPerDevice,
    paths,
    timeline,
    counters,
    attributeChanges: { written, pushed, lost, unconfirmed: written - pushed - lost },
    clocks: CLOCKS,
    simulator: {
      processes: result.simulator.processes,
      requests,
      cpuMs: Math.round(result.simulator.cpuMicros / 1000),
      cpuMicrosPerRequest: requests ? round(result.simulator.cpuMicros / requests, 1) : 0,
      maxRssBytes: result.simulator.maxRssBytes,
      sourceAddresses: result.simulator.sourceAddresses,
      peakConnections: result.simulator.peakConnections,
      connectionsOpened: result.simulator.connectionsOpened,
      limitedPaths: PATHS.filter((name) => paths[name]?.sending?.generatorLimited || warmupPaths[name]?.sending?.generatorLimited),
    },
    thresholds: outcomes,
    passed: !result.interrupted && outcomes.every((o) => o.passed),
  };
}
