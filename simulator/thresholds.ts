// Thresholds: `rpc.p99<50` (milliseconds), `telemetry.errors<1`, `telemetry.rate>=900`.
// Parsed once at the edge; evaluated on the summary; a breach makes the run exit non-zero.
import { InvalidArgumentError } from 'commander';
import { PATHS, type PathName } from './metrics.js';

export type ThresholdStat = 'p50' | 'p90' | 'p99' | 'p99.9' | 'max' | 'mean' | 'count' | 'errors' | 'errorRate' | 'rate';
const STATS: readonly ThresholdStat[] = ['p50', 'p90', 'p99', 'p99.9', 'max', 'mean', 'count', 'errors', 'errorRate', 'rate'];
export type Comparator = '<' | '<=' | '>' | '>=';

export interface Threshold {
  expression: string;
  path: PathName;
  stat: ThresholdStat;
  comparator: Comparator;
  value: number;
}

export interface ThresholdOutcome {
  expression: string;
  /** null: nothing to compare (see `message`). */
  actual: number | null;
  passed: boolean;
  message?: string;
}

const THRESHOLD_PATTERN = /^([A-Za-z]+)\.(p50|p90|p99\.9|p99|max|mean|count|errors|errorRate|rate)\s*(<=|>=|<|>)\s*(\d+(?:\.\d+)?)$/;

/** commander parser for the repeatable `--threshold`. */
export function parseThreshold(text: string, previous: Threshold[] = []): Threshold[] {
  const match = THRESHOLD_PATTERN.exec(text.trim());
  if (!match) {
    throw new InvalidArgumentError(`expected <path>.<stat><op><number> such as rpc.p99<50, got "${text}" (stats: ${STATS.join(', ')}; ops: < <= > >=).`);
  }
  const path = match[1] as PathName;
  if (!PATHS.includes(path)) throw new InvalidArgumentError(`unknown path "${match[1]}" in "${text}": expected one of ${PATHS.join(', ')}.`);
  return [...previous, { expression: text.trim(), path, stat: match[2] as ThresholdStat, comparator: match[3] as Comparator, value: Number(match[4]) }];
}

/** What a threshold reads from the summary of one path. Latencies in ms, rate per second; errors include dropped arrivals. */
export interface PathFigures {
  count: number;
  errors: number;
  rate: number;
  /** `count`: values timed (every outcome with a start time, errors included). */
  latencyMs: { count: number; p50: number; p90: number; p99: number; 'p99.9': number; max: number; meanMs: number };
}

function actualOf(stat: ThresholdStat, figures: PathFigures): number {
  switch (stat) {
    case 'count':
      return figures.count;
    case 'errors':
      return figures.errors;
    case 'errorRate':
      return figures.errors / (figures.count + figures.errors);
    case 'rate':
      return figures.rate;
    case 'mean':
      return figures.latencyMs.meanMs;
    default:
      return figures.latencyMs[stat];
  }
}

function compare(actual: number, comparator: Comparator, value: number): boolean {
  if (comparator === '<') return actual < value;
  if (comparator === '<=') return actual <= value;
  if (comparator === '>') return actual > value;
  return actual >= value;
}

/**
 * A threshold on a path where no request ran fails, with a message saying so: nothing was shown to
 * be fast or error-free. A latency threshold also fails when no request of the path was timed.
 */
export function evaluateThresholds(thresholds: Threshold[], paths: Partial<Record<PathName, PathFigures>>): ThresholdOutcome[] {
  return thresholds.map((t) => {
    const figures = paths[t.path];
    if (!figures || figures.count + figures.errors === 0) {
      return { expression: t.expression, actual: null, passed: false, message: `no request ran on path ${t.path} in the steady state` };
    }
    const latency = !['count', 'errors', 'errorRate', 'rate'].includes(t.stat);
    if (latency && figures.latencyMs.count === 0) {
      return { expression: t.expression, actual: null, passed: false, message: `no request of path ${t.path} was timed in the steady state` };
    }
    const actual = actualOf(t.stat, figures);
    return { expression: t.expression, actual, passed: compare(actual, t.comparator, t.value) };
  });
}
