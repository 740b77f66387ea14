// Measurement: a recorder where requests end (in the engine or in a worker), drained once a
// second into deltas, which aggregate.ts folds into totals. This is the one place per-path metrics
// are recorded: the summary, the progress lines and any exporter read the aggregate.
// Every outcome is counted, and every outcome with a start time is timed (errors too), so no
// request leaves a percentile without a trace. A request is filed by its start (its intended send
// time), and counts in its path's rate when it completed inside the steady window. Besides the
// target's time, each path keeps the simulator's own share: how late its requests left (the send
// lag) and how many waited in a device's backlog for a connection. Times are clock.ts milliseconds.
import { monoNow } from './clock.js';
import { createHistogram, encodeHistogram, recordMicros, type Histogram } from './histograms.js';

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
 * Error classes: `status <code>`, what went wrong on the wire (`timeout`: no complete answer within
 * the request's limit), `dropped` (never sent: it waited in the simulator's backlog beyond its
 * limit), `unfinished` (still open when the run had to end, --request-timeout after its duration),
 * `mismatch` (an RPC answer that is not the reply to its command), `checksum` (firmware bytes that
 * do not match `fw_checksum`).
 */
export type ErrorClass = `status ${number}` | 'timeout' | 'reset' | 'connect' | 'other' | 'dropped' | 'unfinished' | 'mismatch' | 'checksum';
export type Outcome = 'ok' | ErrorClass;

/**
 * How a value was timed: from the intended send time of an open-model arrival (corrected for
 * coordinated omission), from the moment it was actually sent, or not at all (never sent).
 */
export type Timing = 'intended' | 'sent' | 'untimed';

/** Requests started before the steady state began belong to the warm-up. */
export type Phase = 'warmup' | 'steady';

/**
 * A path's figures over a span (a delta, or a phase's totals): its outcomes, how they were timed,
 * and the simulator's own share of its time (how late its requests left, and its backlog). `H` is
 * how the histograms are held: a delta crossing processes carries them compressed (base64).
 */
export interface PathFigures<H = Histogram> {
  ok: number;
  errors: Partial<Record<ErrorClass, number>>;
  /** Values timed from an intended send time, and from the actual one. */
  intended: number;
  sent: number;
  /** Successes that completed inside the steady window (the rate's numerator). */
  okInWindow: number;
  /** Every timed outcome, errors included (µs). */
  histogram: H;
  /** How late each request left after its intended time (µs), backlog included. */
  lag: H;
  /** Requests that waited in a device's backlog for a connection, and how long in all (ms), and at most. */
  queued: number;
  queuedMs: number;
  queuedMaxMs: number;
}

export type PathDelta = PathFigures<string | Histogram>;
export type PathTotals = PathFigures;

export type PathDeltas = Partial<Record<PathName, PathDelta>>;

export interface MetricsDelta {
  warmup: PathDeltas;
  steady: PathDeltas;
  counters: Partial<Record<CounterName, number>>;
  /** Fleet indexes of devices whose polls went on the wire since the last delta. */
  online: number[];
}

interface PathCell extends PathTotals {
  /** The histograms of the previous delta, handed over in-process: reset and recorded into again at the next drain. */
  spare: { histogram: Histogram; lag: Histogram };
}

export interface Recorder {
  /**
   * One outcome of a request that started at `startedAt` (clock.ts ms). A request the simulator
   * sent also says how late it left after its intended time (`lagMs`), `queuedMs` of it in a
   * backlog (0: none); -1: not sent by the simulator (a poll's answer) or never sent. `endedAt`:
   * when it ended, if the caller read the clock then (else now).
   */
  record(path: PathName, outcome: Outcome, startedAt: number, timing: Timing, lagMs?: number, queuedMs?: number, endedAt?: number): void;
  count(counter: CounterName, n?: number): void;
  /** A device of this fleet index has its polls on the wire. */
  online(index: number): void;
  /** Requests starting at or after `at` belong to the steady state. */
  steadyFrom(at: number): void;
  /** The steady window ends at `at`: later completions count in no rate. */
  windowEnd(at: number): void;
  drain(): MetricsDelta;
}

export const newTotals = (): PathTotals => ({
  ok: 0, errors: {}, intended: 0, sent: 0, okInWindow: 0, histogram: createHistogram(), lag: createHistogram(), queued: 0, queuedMs: 0, queuedMaxMs: 0,
});

const newCell = (): PathCell => ({ ...newTotals(), spare: { histogram: createHistogram(), lag: createHistogram() } });

function drainCells(cells: Map<PathName, PathCell>, encode: boolean): PathDeltas {
  const out: PathDeltas = {};
  for (const [path, c] of cells) {
    if (!c.ok && !c.intended && !c.sent && !c.lag.totalCount && !Object.keys(c.errors).length) continue;
    out[path] = {
      ok: c.ok, errors: c.errors, intended: c.intended, sent: c.sent, okInWindow: c.okInWindow,
      histogram: encode ? encodeHistogram(c.histogram) : c.histogram, lag: encode ? encodeHistogram(c.lag) : c.lag,
      queued: c.queued, queuedMs: c.queuedMs, queuedMaxMs: c.queuedMaxMs,
    };
    c.ok = c.intended = c.sent = c.okInWindow = c.queued = c.queuedMs = c.queuedMaxMs = 0;
    c.errors = {};
    if (!encode) {
      // The delta holds these histograms until the next drain (its consumers read it at once); the
      // previous delta's are recorded into meanwhile. Two sets a path, no histogram made per second.
      const { histogram, lag } = c.spare;
      c.spare = { histogram: c.histogram, lag: c.lag };
      c.histogram = histogram;
      c.lag = lag;
    }
    c.histogram.reset();
    c.lag.reset();
  }
  return out;
}

/**
 * `shipped`: the deltas go to another process (a worker's), so histograms are encoded; in-process
 * deltas hand them over as they are, valid until the next drain.
 */
export function createRecorder(shipped = false): Recorder {
  const warmup = new Map<PathName, PathCell>();
  const steady = new Map<PathName, PathCell>();
  let steadyAt = Infinity;
  let endAt = Infinity;
  let counters: Partial<Record<CounterName, number>> = {};
  let online: number[] = [];
  const cellOf = (path: PathName, startedAt: number) => {
    const cells = startedAt >= steadyAt ? steady : warmup;
    let c = cells.get(path);
    if (!c) cells.set(path, (c = newCell()));
    return c;
  };
  return {
    record(path, outcome, startedAt, timing, lagMs = -1, queuedMs = 0, endedAt) {
      const c = cellOf(path, startedAt);
      const now = endedAt ?? monoNow();
      if (outcome === 'ok') {
        c.ok++;
        if (now >= steadyAt && now < endAt) c.okInWindow++;
      } else c.errors[outcome] = (c.errors[outcome] ?? 0) + 1;
      if (lagMs >= 0) {
        recordMicros(c.lag, lagMs * 1000);
        if (queuedMs > 0) {
          c.queued++;
          c.queuedMs += queuedMs;
          c.queuedMaxMs = Math.max(c.queuedMaxMs, queuedMs);
        }
      }
      if (timing === 'untimed') return;
      recordMicros(c.histogram, (now - startedAt) * 1000);
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
    windowEnd(at) {
      endAt = at;
    },
    drain() {
      const delta: MetricsDelta = { warmup: drainCells(warmup, shipped), steady: drainCells(steady, shipped), counters, online };
      counters = {};
      online = [];
      return delta;
    },
  };
}

export function errorTotal(errors: Partial<Record<ErrorClass, number>>): number {
  let n = 0;
  for (const v of Object.values(errors)) n += v ?? 0;
  return n;
}
