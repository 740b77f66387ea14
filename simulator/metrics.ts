// Measurement: a recorder where requests end (in the engine or in a worker), drained once a
// second into deltas; an aggregate that folds deltas into totals (warm-up and steady state apart),
// per-second timelines and per-interval histograms for the live progress lines.
// Every outcome is counted, and every outcome with a start time is timed (errors too), so no
// request leaves a percentile without a trace. Times are clock.ts milliseconds.
import { monoNow } from './clock.js';
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
  | 'attributeLost'
  | 'rpcDelivered'
  | 'rpcReplied'
  | 'attributePolls'
  | 'rpcPolls'
  | 'pollTimeouts'
  | 'devicesOnline';
export const COUNTERS: readonly CounterName[] = [
  'devicesOnline',
  'telemetryPoints',
  'updatesDelivered',
  'attributeLost',
  'rpcDelivered',
  'rpcReplied',
  'attributePolls',
  'rpcPolls',
  'pollTimeouts',
];

/**
 * Error classes: `status <code>`, what went wrong on the wire, `dropped` (an open-model arrival
 * never sent because too many requests were in flight), `mismatch` (an RPC answer that is not the
 * reply to its command), `checksum` (firmware bytes that do not match `fw_checksum`).
 */
export type ErrorClass = `status ${number}` | 'timeout' | 'reset' | 'connect' | 'other' | 'dropped' | 'mismatch' | 'checksum';
export type Outcome = 'ok' | ErrorClass;

/**
 * How a value was timed: from the intended send time of an open-model arrival (corrected for
 * coordinated omission), from the moment it was actually sent, or not at all (never sent).
 */
export type Timing = 'intended' | 'sent' | 'untimed';

/** Requests started before the steady state began belong to the warm-up. */
export type Phase = 'warmup' | 'steady';

export interface PathDelta {
  ok: number;
  errors: Partial<Record<ErrorClass, number>>;
  /** Values timed from an intended send time, and from the actual one. */
  intended: number;
  sent: number;
  /** Every timed outcome, errors included: compressed base64 when it crosses processes, else the histogram itself. */
  histogram: string | Histogram;
}

export type PathDeltas = Partial<Record<PathName, PathDelta>>;

export interface MetricsDelta {
  warmup: PathDeltas;
  steady: PathDeltas;
  counters: Partial<Record<CounterName, number>>;
  /** Fleet indexes of devices whose polls went on the wire since the last delta. */
  online: number[];
}

interface PathCell {
  ok: number;
  errors: Partial<Record<ErrorClass, number>>;
  intended: number;
  sent: number;
  histogram: Histogram;
}

export interface Recorder {
  /** One outcome of a request that started at `startedAt` (clock.ts ms). */
  record(path: PathName, outcome: Outcome, startedAt: number, timing: Timing): void;
  count(counter: CounterName, n?: number): void;
  /** A device of this fleet index has its polls on the wire. */
  online(index: number): void;
  /** Requests starting at or after `at` belong to the steady state. */
  steadyFrom(at: number): void;
  drain(): MetricsDelta;
}

const newCell = (): PathCell => ({ ok: 0, errors: {}, intended: 0, sent: 0, histogram: createHistogram() });

function drainCells(cells: Map<PathName, PathCell>, encode: boolean): PathDeltas {
  const out: PathDeltas = {};
  for (const [path, c] of cells) {
    if (!c.ok && !c.intended && !c.sent && !Object.keys(c.errors).length) continue;
    out[path] = { ok: c.ok, errors: c.errors, intended: c.intended, sent: c.sent, histogram: encode ? encodeHistogram(c.histogram) : c.histogram };
    c.ok = c.intended = c.sent = 0;
    c.errors = {};
    if (encode) c.histogram.reset();
    else c.histogram = createHistogram(); // the drained one now belongs to the delta
  }
  return out;
}

/** `shipped`: the deltas go to another process (a worker's), so histograms are encoded; in-process deltas hand them over as they are. */
export function createRecorder(shipped = false): Recorder {
  const warmup = new Map<PathName, PathCell>();
  const steady = new Map<PathName, PathCell>();
  let steadyAt = Infinity;
  let counters: Partial<Record<CounterName, number>> = {};
  let online: number[] = [];
  return {
    record(path, outcome, startedAt, timing) {
      const cells = startedAt >= steadyAt ? steady : warmup;
      let c = cells.get(path);
      if (!c) cells.set(path, (c = newCell()));
      if (outcome === 'ok') c.ok++;
      else c.errors[outcome] = (c.errors[outcome] ?? 0) + 1;
      if (timing === 'untimed') return;
      recordMicros(c.histogram, (monoNow() - startedAt) * 1000);
      if (timing === 'intended') c.intended++;
      else c.sent++;
    },
    count(counter, n = 1) {
      counters[counter] = (counters[counter] ?? 0) + n;
    },
    online(index) {
      online.push(index);
      counters.devicesOnline = (counters.devicesOnline ?? 0) + 1;
    },
    steadyFrom(at) {
      steadyAt = at;
    },
    drain() {
      const delta: MetricsDelta = { warmup: drainCells(warmup, shipped), steady: drainCells(steady, shipped), counters, online };
      counters = {};
      online = [];
      return delta;
    },
  };
}

export interface PathTotals {
  ok: number;
  errors: Partial<Record<ErrorClass, number>>;
  intended: number;
  sent: number;
  histogram: Histogram;
}

export interface Timeline {
  /** Per second of the run (both phases): successes and errors. */
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
  phases: Record<Phase, Map<PathName, PathTotals>>;
  timelines: Map<PathName, Timeline>;
  counters: Partial<Record<CounterName, number>>;
}

export function errorTotal(errors: Partial<Record<ErrorClass, number>>): number {
  let n = 0;
  for (const v of Object.values(errors)) n += v ?? 0;
  return n;
}

function totalsOf(map: Map<PathName, PathTotals>, name: PathName): PathTotals {
  let totals = map.get(name);
  if (!totals) map.set(name, (totals = { ok: 0, errors: {}, intended: 0, sent: 0, histogram: createHistogram() }));
  return totals;
}

export function createAggregate(): Aggregate {
  const phases: Record<Phase, Map<PathName, PathTotals>> = { warmup: new Map(), steady: new Map() };
  const timelines = new Map<PathName, Timeline>();
  const intervals = new Map<PathName, { ok: number; errors: number; histogram: Histogram }>();
  const counters: Partial<Record<CounterName, number>> = {};
  const absorbPhase = (deltas: PathDeltas, into: Map<PathName, PathTotals>, second: number) => {
    for (const [name, d] of Object.entries(deltas) as [PathName, PathDelta][]) {
      const totals = totalsOf(into, name);
      let timeline = timelines.get(name);
      if (!timeline) timelines.set(name, (timeline = { okPerSecond: [], errorsPerSecond: [], p99PerSecond: [] }));
      let interval = intervals.get(name);
      if (!interval) intervals.set(name, (interval = { ok: 0, errors: 0, histogram: createHistogram() }));
      const errors = errorTotal(d.errors);
      totals.ok += d.ok;
      totals.intended += d.intended;
      totals.sent += d.sent;
      for (const [cls, n] of Object.entries(d.errors) as [ErrorClass, number][]) totals.errors[cls] = (totals.errors[cls] ?? 0) + n;
      while (timeline.okPerSecond.length <= second) {
        timeline.okPerSecond.push(0);
        timeline.errorsPerSecond.push(0);
      }
      timeline.okPerSecond[second] += d.ok;
      timeline.errorsPerSecond[second] += errors;
      addEncoded(totals.histogram, d.histogram);
      addEncoded(interval.histogram, d.histogram);
      interval.ok += d.ok;
      interval.errors += errors;
    }
  };
  return {
    phases,
    timelines,
    counters,
    absorb(delta, second) {
      absorbPhase(delta.warmup, phases.warmup, second);
      absorbPhase(delta.steady, phases.steady, second);
      for (const [name, n] of Object.entries(delta.counters) as [CounterName, number][]) counters[name] = (counters[name] ?? 0) + n;
    },
    interval(second) {
      const view: Partial<Record<PathName, IntervalView>> = {};
      for (const [name, i] of intervals) {
        view[name] = { ok: i.ok, errors: i.errors, p99Ms: i.histogram.totalCount ? i.histogram.getValueAtPercentile(99) / 1000 : 0 };
        const timeline = timelines.get(name)!.p99PerSecond;
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
