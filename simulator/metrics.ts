// Measurement: a recorder where requests end (in the engine or in a worker), drained once a
// second into deltas; an aggregate that folds deltas into totals, per-second timelines and
// per-interval histograms for the live progress line.
import { addEncoded, createHistogram, encodeHistogram, recordMicros, type Histogram } from './histograms.js';

/** Measured paths. rpc: REST call sent -> device got it -> reply -> REST response. */
export type PathName =
  | 'telemetry'
  | 'attributePush'
  | 'attributeWrite'
  | 'rpc'
  | 'rpcDelivery'
  | 'rpcReply'
  | 'clientRpc'
  | 'firmware';
export const PATHS: readonly PathName[] = ['telemetry', 'attributePush', 'attributeWrite', 'rpc', 'rpcDelivery', 'rpcReply', 'clientRpc', 'firmware'];

export type CounterName =
  | 'telemetryPoints'
  | 'updatesDelivered'
  | 'rpcDelivered'
  | 'rpcReplied'
  | 'attributePolls'
  | 'rpcPolls'
  | 'pollTimeouts'
  | 'devicesOnline'
  | 'devicesFailed'
  | 'dropped';

/** Error classes: `status <code>`, or what went wrong on the wire. */
export type ErrorClass = `status ${number}` | 'timeout' | 'reset' | 'connect' | 'other';

export interface PathDelta {
  ok: number;
  errors: Partial<Record<ErrorClass, number>>;
  histogram: string;
}

export interface MetricsDelta {
  paths: Partial<Record<PathName, PathDelta>>;
  counters: Partial<Record<CounterName, number>>;
}

interface PathCell {
  ok: number;
  errors: Partial<Record<ErrorClass, number>>;
  histogram: Histogram;
}

export interface Recorder {
  ok(path: PathName, micros: number): void;
  fail(path: PathName, error: ErrorClass): void;
  count(counter: CounterName, n?: number): void;
  drain(): MetricsDelta;
}

export function createRecorder(): Recorder {
  const cells = new Map<PathName, PathCell>();
  let counters: Partial<Record<CounterName, number>> = {};
  const cell = (path: PathName): PathCell => {
    let c = cells.get(path);
    if (!c) cells.set(path, (c = { ok: 0, errors: {}, histogram: createHistogram() }));
    return c;
  };
  return {
    ok(path, micros) {
      const c = cell(path);
      c.ok++;
      recordMicros(c.histogram, micros);
    },
    fail(path, error) {
      const c = cell(path);
      c.errors[error] = (c.errors[error] ?? 0) + 1;
    },
    count(counter, n = 1) {
      counters[counter] = (counters[counter] ?? 0) + n;
    },
    drain() {
      const delta: MetricsDelta = { paths: {}, counters };
      counters = {};
      for (const [path, c] of cells) {
        if (!c.ok && !Object.keys(c.errors).length) continue;
        delta.paths[path] = { ok: c.ok, errors: c.errors, histogram: encodeHistogram(c.histogram) };
        c.ok = 0;
        c.errors = {};
        c.histogram.reset();
      }
      return delta;
    },
  };
}

export interface PathTotals {
  ok: number;
  errors: Partial<Record<ErrorClass, number>>;
  histogram: Histogram;
  /** Per second of the run: successes and errors. */
  okPerSecond: number[];
  errorsPerSecond: number[];
  /** p99 latency (ms) of each progress interval, by the second it ended in. */
  p99PerSecond: number[];
}

export interface IntervalView {
  ok: number;
  errors: number;
  p99Ms: number;
}

export interface Aggregate {
  absorb(delta: MetricsDelta, second: number): void;
  /** What happened since the previous call, per path (for progress and the p99 timeline), then starts a new interval. */
  interval(second: number): Partial<Record<PathName, IntervalView>>;
  paths: Map<PathName, PathTotals>;
  counters: Partial<Record<CounterName, number>>;
}

export function errorTotal(errors: Partial<Record<ErrorClass, number>>): number {
  let n = 0;
  for (const v of Object.values(errors)) n += v ?? 0;
  return n;
}

export function createAggregate(): Aggregate {
  const paths = new Map<PathName, PathTotals>();
  const intervals = new Map<PathName, { ok: number; errors: number; histogram: Histogram }>();
  const counters: Partial<Record<CounterName, number>> = {};
  return {
    paths,
    counters,
    absorb(delta, second) {
      for (const [name, d] of Object.entries(delta.paths) as [PathName, PathDelta][]) {
        let totals = paths.get(name);
        if (!totals) paths.set(name, (totals = { ok: 0, errors: {}, histogram: createHistogram(), okPerSecond: [], errorsPerSecond: [], p99PerSecond: [] }));
        let interval = intervals.get(name);
        if (!interval) intervals.set(name, (interval = { ok: 0, errors: 0, histogram: createHistogram() }));
        const errors = errorTotal(d.errors);
        totals.ok += d.ok;
        for (const [cls, n] of Object.entries(d.errors) as [ErrorClass, number][]) totals.errors[cls] = (totals.errors[cls] ?? 0) + n;
        while (totals.okPerSecond.length <= second) {
          totals.okPerSecond.push(0);
          totals.errorsPerSecond.push(0);
        }
        totals.okPerSecond[second] += d.ok;
        totals.errorsPerSecond[second] += errors;
        addEncoded(totals.histogram, d.histogram);
        addEncoded(interval.histogram, d.histogram);
        interval.ok += d.ok;
        interval.errors += errors;
      }
      for (const [name, n] of Object.entries(delta.counters) as [CounterName, number][]) counters[name] = (counters[name] ?? 0) + n;
    },
    interval(second) {
      const view: Partial<Record<PathName, IntervalView>> = {};
      for (const [name, i] of intervals) {
        view[name] = { ok: i.ok, errors: i.errors, p99Ms: i.histogram.totalCount ? i.histogram.getValueAtPercentile(99) / 1000 : 0 };
        const timeline = paths.get(name)!.p99PerSecond;
        while (timeline.length <= second) timeline.push(0);
        if (i.histogram.totalCount) timeline[second] = view[name].p99Ms;
        i.ok = 0;
        i.errors = 0;
        i.histogram.reset();
      }
      return view;
    },
  };
}
