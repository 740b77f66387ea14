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
  actual: number;
  passed: boolean;
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

/** What a threshold reads from the summary of one path. Latencies in ms, rate per second. */
export interface PathFigures {
  count: number;
  errors: number;
  rate: number;
  latencyMs: { p50: number; p90: number; p99: number; 'p99.9': number; max: number; meanMs: number };
}

function actualOf(stat: ThresholdStat, figures: PathFigures | undefined): number {
  if (!figures) return 0;
  switch (stat) {
    case 'count':
      return figures.count;
    case 'errors':
      return figures.errors;
    case 'errorRate':
      return figures.count + figures.errors ? figures.errors / (figures.count + figures.errors) : 0;
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

/** A latency threshold on a path with no samples fails: nothing was shown to be fast enough. */
export function evaluateThresholds(thresholds: Threshold[], paths: Partial<Record<PathName, PathFigures>>): ThresholdOutcome[] {
  return thresholds.map((t) => {
    const figures = paths[t.path];
    const actual = actualOf(t.stat, figures);
    const latency = !['count', 'errors', 'errorRate', 'rate'].includes(t.stat);
    const passed = latency && !figures?.count ? false : compare(actual, t.comparator, t.value);
    return { expression: t.expression, actual, passed };
  });
}
