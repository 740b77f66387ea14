// One measured side of `dhi bench --simulator` (autocannon, the paced floor or dhi simulate) in a
// child process of its own, so that no side pays for another: the garbage one side leaves, the
// major GCs it provokes and the code it compiles stay in its own process. The child runs its side
// once per `run` message, for the length asked, and answers with the requests the run made, its
// load's length and its own process.cpuUsage() over the run and over a window of it (from a given
// point after the load began); it says when each run's load begins, so that the parent can start
// another side's run beside it (bench-cost.ts runs the paced floor and dhi simulate at the same
// time). The parent forks it, sends the side, then the runs, and ends it.
import { constants, PerformanceObserver, type NodeGCPerformanceDetail } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { forkModule } from './child.js';
import { pacedFloorRun, type SendLagFigures } from './bench-paced-floor.js';
import { requestsEnded } from './requests-ended.js';
import { simulate } from './simulate.js';
import type { EngineEvent, SimulationConfig } from './simulation.js';

/** What one side sends: the same telemetry request for autocannon and the floor (`url` + `path`). */
export type BenchSide =
  | { kind: 'autocannon'; url: string; path: string; body: string; rate: number; connections: number }
  | { kind: 'paced-floor'; url: string; path: string; body: string; rate: number; devices: number }
  /** `config.durationMs` is replaced by each run's length. */
  | { kind: 'simulator'; config: SimulationConfig; reportDir: string };

export interface RunCost {
  requests: number;
  /** How long the load ran (dhi simulate's: from its start to its stop, without the fleet's creation and deletion). */
  loadMs: number;
  /** The child's CPU (user + system, every thread) over the run. */
  cpuMicros: number;
  /** The window asked, between its two readings (all 0 without one). */
  window: WindowCost;
  /**
   * A paced side's send lag (not autocannon's, which does not pace each request): the paced floor's
   * over the sends meant for the window (all of its sends without one), dhi simulate's over its
   * telemetry path's steady state (its summary's `lagMs`).
   */
  sendLagMs?: SendLagFigures;
}

/** A window of a run as read: at each edge the child's CPU so far and the requests ended so far. */
export interface WindowCost {
  /** The child's CPU between the two readings. */
  cpuMicros: number;
  /** The requests that ended between them (answered, failed or timed out), counted one by one. */
  requests: number;
  /** The time between them. */
  ms: number;
  /** Major GCs (mark-compacts) that began between them. */
  majorGcs: number;
}

/** A part of a run's load: from `fromMs` after it began, for `ms`. */
export interface Window {
  fromMs: number;
  ms: number;
}

/** A side's run in its child: `started` once its load begins (dhi simulate's after its fleet is up), `cost` once it is over. */
export interface SideRun {
  started: Promise<void>;
  cost: Promise<RunCost>;
}

export interface SideChild {
  /** One run of `ms`, its CPU also read over `window`; `rate` (the paced floor's) replaces the side's own for this run. One run at a time. */
  run(ms: number, options?: { rate?: number; window?: Window }): SideRun;
  /** Ends the child (its runs are over): it exits when its channel closes. */
  close(): void;
}

type ToChild = { type: 'side'; side: BenchSide } | { type: 'run'; ms: number; rate?: number; window?: Window };
type FromChild = { type: 'ready' } | { type: 'started' } | { type: 'ran'; cost: RunCost } | { type: 'error'; message: string };

// Started without V8's memory reducer: some seconds after a mark-compact that left the heap larger
// than at its last reduction, it runs up to three more mark-compacts (~80 ms of main thread plus
// concurrent marking) to shrink the heap, and whether they fell into a measured run or after it
// decided the round. A forced GC before each run instead is such a mark-compact and arms the
// reducer itself. Measured on the mixed side (2 rounds, exclusive; marginal µs a request, reducing
// GCs in the child): no memory reducer 151.1 / 142.9, none; a forced GC before each run 228.6 /
// 185.1, two each; neither 152.9 / 186.1, none then two. Every side gets the same options.
// Nor is there a forced GC between a child's warm-up run and its measured run (with --expose-gc):
// with the reducer off and the window 2 s / 12 s into the run, no mark-compact fell into a measured
// window with or without it (window.majorGcs), and it did not narrow the rounds (see
// simulator/README.md, "What it costs").
const CHILD_NODE_OPTIONS = ['--no-memory-reducer'];

/** A promise with its settling functions, for a message yet to come. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Forks a child for `side`; resolves once it is ready to run. */
export function startSide(side: BenchSide): Promise<SideChild> {
  const child = forkModule(import.meta.url, ['--dhi-bench-side'], CHILD_NODE_OPTIONS);
  // The run in progress (or the last one): what the child's next messages settle.
  let started = deferred<void>();
  let cost = deferred<RunCost>();
  const fail = (error: Error) => {
    started.reject(error);
    cost.reject(error);
  };
  let exited: Error | undefined;
  const run = (ms: number, options: { rate?: number; window?: Window } = {}): SideRun => {
    [started, cost] = [deferred<void>(), deferred<RunCost>()];
    // A run that fails after its load began rejects `cost` alone; `started` is settled by then.
    started.promise.catch(() => {});
    if (exited) fail(exited);
    else child.send({ type: 'run', ms, ...options } satisfies ToChild);
    return { started: started.promise, cost: cost.promise };
  };
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: FromChild) => {
      if (message.type === 'ready') {
        child.send({ type: 'side', side } satisfies ToChild);
        resolve({ run, close: () => child.connected && child.disconnect() });
      } else if (message.type === 'started') started.resolve();
      else if (message.type === 'ran') cost.resolve(message.cost);
      else fail(new Error(`the bench's ${side.kind} run failed: ${message.message}`));
    });
    // After the last answer this settles nothing; before it, the child died without one.
    child.once('exit', (code, signal) => {
      exited = new Error(`the bench's ${side.kind} run exited with ${signal ?? `code ${code}`} before reporting`);
      fail(exited);
      reject(exited);
    });
  });
}

/** The child's CPU so far (user + system, every thread), µs. */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** When this child's major GCs began (performance.now() ms), as V8 reports them. */
function majorGcLog() {
  const starts: number[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if ((entry as unknown as { detail: NodeGCPerformanceDetail }).detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) starts.push(entry.startTime);
  }).observe({ entryTypes: ['gc'] });
  return { between: (from: number, to: number) => starts.filter((at) => at >= from && at < to).length };
}

/** One edge of a window: the CPU so far, the requests ended so far, when. */
interface Reading {
  cpu: number;
  requests: number;
  at: number;
}

/**
 * Reads `window` of a run: at each edge the CPU and the requests ended so far, read together. A
 * side that can say at any moment how many of its requests ended (autocannon, the paced floor) is
 * read by timers at the window's edges; dhi simulate knows it at its drains of its measurements
 * (once a second), and its edges are the first drains at or past the window's edges.
 */
function windowMeter(window: Window | undefined, gcs: ReturnType<typeof majorGcLog>, began: () => void) {
  let start = 0;
  let from: Reading | undefined;
  let to: Reading | undefined;
  const timers: NodeJS.Timeout[] = [];
  const read = (requests: number): Reading => ({ cpu: cpuNow(), requests, at: performance.now() });
  return {
    /** The load began; `ended`: the requests ended so far, readable at any time. */
    begin(ended?: () => number) {
      start = performance.now();
      began();
      if (window && ended) timers.push(setTimeout(() => (from = read(ended())), window.fromMs), setTimeout(() => (to = read(ended())), window.fromMs + window.ms));
    },
    /** The requests ended so far, known now: an edge if the window's edge has come. */
    point(ended: number) {
      if (!window || to) return;
      const elapsed = performance.now() - start;
      if (!from) from = elapsed >= window.fromMs ? read(ended) : undefined;
      else if (elapsed >= window.fromMs + window.ms) to = read(ended);
    },
    /** The window as read; one the load did not outlast is an error, not a figure. */
    end(): WindowCost {
      for (const timer of timers) clearTimeout(timer);
      if (!window) return { cpuMicros: 0, requests: 0, ms: 0, majorGcs: 0 };
      if (!from || !to) throw new Error(`the run ended before its measured window did (${window.fromMs + window.ms} ms after the load began)`);
      return { cpuMicros: to.cpu - from.cpu, requests: to.requests - from.requests, ms: Math.round(to.at - from.at), majorGcs: gcs.between(from.at, to.at) };
    },
  };
}

type Meter = ReturnType<typeof windowMeter>;

/** A load under way: the requests it ended so far, and once it is over their whole count (and a paced load's send lag). */
interface Load {
  ended(): number;
  done: Promise<{ requests: number; sendLagMs?: SendLagFigures }>;
}

/** A run of the side for `ms` at `rate`, measured over its load (the simulator's: over its run window, without creating and deleting the fleet); the meter hears when the load begins and how many requests ended; the paced floor's send lag is of the sends meant for `window`. */
function runner(side: BenchSide): (ms: number, rate: number | undefined, meter: Meter, window?: Window) => Promise<Omit<RunCost, 'window'>> {
  if (side.kind === 'simulator') {
    return async (durationMs, _rate, meter) => {
      // The requests ended so far: the measurement deltas, drained once a second just before each tick.
      let ended = 0;
      const onEvent = (event: EngineEvent) => {
        if (event.type === 'measured') ended += requestsEnded([event.delta.warmup, event.delta.steady], event.delta.counters);
        else if (event.type === 'tick') meter.point(ended);
        else if (event.type === 'phase' && event.phase === 'running') meter.begin();
      };
      const { summary, result } = await simulate({ ...side.config, durationMs }, [], side.reportDir, onEvent);
      // Every delta was counted: the window's counts are the run's own.
      if (ended !== summary.simulator.requests) throw new Error(`counted ${ended} requests in the run's measurements, its summary ${summary.simulator.requests}`);
      const sendLagMs = summary.paths.telemetry?.sending?.lagMs;
      return { requests: summary.simulator.requests, loadMs: result.runMs, cpuMicros: result.simulator.cpuMicros, ...(sendLagMs ? { sendLagMs } : {}) };
    };
  }
  const load = (ms: number, rate: number, window?: Window): Load => {
    if (side.kind === 'paced-floor') {
      const run = pacedFloorRun({ ...side, rate, durationMs: ms, lagWindow: window });
      return { ended: run.answered, done: run.done.then((r) => ({ requests: r.answered, sendLagMs: r.sendLagMs })) };
    }
    const options = { url: side.url + side.path, method: 'POST' as const, body: side.body, headers: { 'content-type': 'application/json' }, connections: side.connections, overallRate: rate, duration: ms / 1000 };
    // Without a callback autocannon returns its instance, which is also a promise of the result.
    const instance = autocannon(options) as unknown as autocannon.Instance & Promise<autocannon.Result>;
    let answered = 0;
    instance.on('response', () => answered++);
    return { ended: () => answered, done: instance.then((result) => ({ requests: result.requests.total })) };
  };
  return async (ms, rate, meter, window) => {
    const start = cpuNow();
    const run = load(ms, rate ?? side.rate, window);
    meter.begin(run.ended);
    const { requests, sendLagMs } = await run.done;
    return { requests, loadMs: ms, cpuMicros: cpuNow() - start, ...(sendLagMs ? { sendLagMs } : {}) };
  };
}

function runInChild(): void {
  const send = (message: FromChild) => process.send?.(message);
  const gcs = majorGcLog();
  let run: ReturnType<typeof runner> | undefined;
  process.on('message', (message: ToChild) => {
    if (message.type === 'side') run = runner(message.side);
    else if (run) {
      const meter = windowMeter(message.window, gcs, () => send({ type: 'started' }));
      run(message.ms, message.rate, meter, message.window)
        .then((cost) => ({ ...cost, window: meter.end() }))
        .then(
          (cost) => send({ type: 'ran', cost }),
          (error: Error) => send({ type: 'error', message: error.message }),
        );
    }
  });
  // The parent is done with this side (or gone): exit, whatever the side left open.
  process.once('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}

if (process.argv.includes('--dhi-bench-side') && process.send) runInChild();
