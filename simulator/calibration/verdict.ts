// The calibration's judgement: what the built-in target knows it did, against what the simulator
// reported, figure by figure, each with its tolerance. Counts must match exactly (every request
// counted and classed as the target answered it); latencies may exceed the target's by what the
// machine adds (loopback, parsing, the pacer) within the tolerances below, and may not fall below
// it by more than the histograms' resolution. These tolerances are the command's, not a test's.
import { addEncoded, createHistogram, latencyStats, percentile, type Histogram } from '../histograms.js';
import { PATHS, type ErrorClass, type Outcome, type PathName } from '../metrics.js';
import type { TargetRecords } from './known-target.js';
import { round3 } from '../report/format.js';

/** What the simulator reported, both phases together. */
export interface Reported {
  paths: Partial<Record<PathName, { outcomes: Partial<Record<Outcome, number>>; histogram: Histogram; lag: Histogram; queued: number }>>;
  durationMs: number;
  requestTimeoutMs: number;
  /** Load, then the stop (until every request had ended). */
  runMs: number;
  stopMs: number;
  /** Open-model arrival rates per path (per second, the whole fleet), and the streams each is split into. */
  openRates: Partial<Record<PathName, { rate: number; streams: number }>>;
}

export interface Figure {
  path: PathName | 'run';
  figure: string;
  expected: number;
  reported: number;
  /** Allowed difference reported - expected: [below, above]; [0, 0] for exact counts. */
  tolerance: [number, number];
  pass: boolean;
}

/** How much later than the target's a latency may be (ms): the goals for p50 and p99, and their neighbours. */
export const LATENCY_TOLERANCE_MS: Record<'p50' | 'p90' | 'p99' | 'max' | 'mean', number> = { p50: 1, p90: 2, p99: 3, max: 5, mean: 1 };
/** Both histograms keep three significant digits: each side may be off by this share of the value. */
const RESOLUTION = 0.002;
/** A send may leave this late at the 99th percentile (ms): the goal. */
export const LAG_TOLERANCE_MS = 1;
/** The stop may overrun duration + request timeout by a sweep and an IPC round. */
const STOP_SLACK_MS = 250;
/** Edge slack of the arrivals counted in the silence: a few milliseconds of lag at each end. */
const SILENCE_EDGE_MS = 3;

function figure(path: Figure['path'], name: string, expected: number, reported: number, tolerance: [number, number]): Figure {
  const difference = reported - expected;
  return { path, figure: name, expected: round3(expected), reported: round3(reported), tolerance: [round3(tolerance[0]), round3(tolerance[1])], pass: difference >= tolerance[0] - 1e-9 && difference <= tolerance[1] + 1e-9 };
}

const exact = (path: Figure['path'], name: string, expected: number, reported: number) => figure(path, name, expected, reported, [0, 0]);

function latencyFigures(path: PathName, expected: Histogram, reported: Histogram): Figure[] {
  const e = latencyStats(expected);
  const r = latencyStats(reported);
  return (['p50', 'p90', 'p99', 'max', 'mean'] as const).map((stat) => {
    const key = stat === 'mean' ? 'meanMs' : stat;
    const slack = RESOLUTION * e[key] + 0.05;
    return figure(path, `${stat} ms`, e[key], r[key], [-slack, LATENCY_TOLERANCE_MS[stat] + slack]);
  });
}

/**
 * The simulator's outcomes as the target can tell them: a request the simulator cut when the run
 * had to end (`unfinished`) and one it timed out are, for the target, both a client that gave up
 * before its answer (`timeout`).
 */
function asTargetSees(outcomes: Partial<Record<Outcome, number>>): Partial<Record<Outcome, number>> {
  const { unfinished = 0, ...rest } = outcomes;
  return unfinished ? { ...rest, timeout: (rest.timeout ?? 0) + unfinished } : rest;
}

/** Every figure of one calibration run, in a fixed order: per path (counts, then latencies), then the run's own. */
export function judge(records: TargetRecords, reported: Reported): Figure[] {
  const figures: Figure[] = [];
  for (const path of PATHS) {
    const known = records.paths[path];
    if (!known) continue;
    const sim = reported.paths[path];
    const outcomes = asTargetSees(sim?.outcomes ?? {});
    const classes = new Set<Outcome>([...(Object.keys(known.outcomes) as Outcome[]), ...(Object.keys(outcomes) as Outcome[])]);
    for (const outcome of [...classes].sort()) figures.push(exact(path, outcome, known.outcomes[outcome] ?? 0, outcomes[outcome] ?? 0));
    const held = createHistogram();
    addEncoded(held, known.held);
    figures.push(...latencyFigures(path, held, sim?.histogram ?? createHistogram()));
    const open = reported.openRates[path];
    if (open && records.silence) {
      const silentMs = records.silence.to - records.silence.from;
      const edge = open.streams * (1 + Math.ceil((open.rate / open.streams) * (2 * SILENCE_EDGE_MS) / 1000));
      figures.push(figure(path, 'arrived in the silence', (open.rate * silentMs) / 1000, known.arrivedInSilence, [-edge, edge]));
    }
    if (sim?.lag.totalCount) {
      figures.push(exact(path, 'queued in the simulator', 0, sim.queued));
      figures.push(figure(path, 'send lag p99 ms', 0, percentile(sim.lag, 99) / 1000, [0, LAG_TOLERANCE_MS]));
    }
  }
  const bound = reported.durationMs + reported.requestTimeoutMs;
  figures.push(figure('run', 'ended after ms (at most duration + request timeout)', bound, reported.runMs + reported.stopMs, [-bound, STOP_SLACK_MS]));
  return figures;
}

/** The simulator's side, both phases folded together, from its aggregate. */
export function reportedPaths(phases: Map<PathName, { ok: number; errors: Partial<Record<ErrorClass, number>>; histogram: Histogram; lag: Histogram; queued: number }>[]): Reported['paths'] {
  const out: Reported['paths'] = {};
  for (const phase of phases) {
    for (const [path, totals] of phase) {
      const into = (out[path] ??= { outcomes: {}, histogram: createHistogram(), lag: createHistogram(), queued: 0 });
      if (totals.ok) into.outcomes.ok = (into.outcomes.ok ?? 0) + totals.ok;
      for (const [cls, n] of Object.entries(totals.errors) as [ErrorClass, number][]) into.outcomes[cls] = (into.outcomes[cls] ?? 0) + n;
      addEncoded(into.histogram, totals.histogram);
      addEncoded(into.lag, totals.lag);
      into.queued += totals.queued;
    }
  }
  return out;
}
