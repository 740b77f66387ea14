// One measured side of `dhi bench --simulator` (autocannon, the paced floor or dhi simulate) in a
// child process of its own, so that no side pays for another: the garbage one side leaves, the
// major GCs it provokes and the code it compiles stay in its own process. The child runs its side
// once per `run` message, for the length asked, and answers with the requests the run made, its
// load's length and its own process.cpuUsage() over the run and over a window of it (from a given
// point after the load began); it says when each run's load begins, so that the parent can start
// another side's run beside it (bench-cost.ts runs the paced floor and dhi simulate at the same
// time). The parent forks it, sends the side, then the runs, and ends it.
import autocannon from 'autocannon';
import { forkModule } from './child.js';
import { pacedFloorRun } from './bench-paced-floor.js';
import { simulate } from './simulate.js';
import type { SimulationConfig } from './simulation.js';

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
  /** The child's CPU over the window asked (0 without one). */
  windowCpuMicros: number;
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

/** Reads the CPU spent over `window` of a load that begins when `begin` is called. */
function windowMeter(window: Window | undefined) {
  let from = 0;
  let to = 0;
  const timers: NodeJS.Timeout[] = [];
  return {
    begin() {
      if (!window) return;
      timers.push(setTimeout(() => (from = cpuNow()), window.fromMs), setTimeout(() => (to = cpuNow()), window.fromMs + window.ms));
    },
    /** The window's CPU; a window the load did not outlast is an error, not a figure. */
    end(): number {
      for (const timer of timers) clearTimeout(timer);
      if (window && !to) throw new Error(`the run ended before its measured window did (${window.fromMs + window.ms} ms after the load began)`);
      return to - from;
    },
  };
}

/** A run of the side for `ms` at `rate`, measured over its load (the simulator's: over its run window, without creating and deleting the fleet); `started` when the load begins. */
function runner(side: BenchSide): (ms: number, rate: number | undefined, started: () => void) => Promise<Omit<RunCost, 'windowCpuMicros'>> {
  if (side.kind === 'simulator') {
    return async (durationMs, _rate, started) => {
      const onEvent = (event: { type: string; phase?: string }) => event.type === 'phase' && event.phase === 'running' && started();
      const { summary, result } = await simulate({ ...side.config, durationMs }, [], side.reportDir, onEvent);
      return { requests: summary.simulator.requests, loadMs: result.runMs, cpuMicros: result.simulator.cpuMicros };
    };
  }
  const load =
    side.kind === 'autocannon'
      ? async (ms: number) => {
          const result = await autocannon({
            url: side.url + side.path,
            method: 'POST',
            body: side.body,
            headers: { 'content-type': 'application/json' },
            connections: side.connections,
            overallRate: side.rate,
            duration: ms / 1000,
          });
          return result.requests.total;
        }
      : async (ms: number, rate: number) => (await pacedFloorRun({ ...side, rate, durationMs: ms })).answered;
  return async (ms, rate, started) => {
    const start = cpuNow();
    started();
    const requests = await load(ms, rate ?? side.rate);
    return { requests, loadMs: ms, cpuMicros: cpuNow() - start };
  };
}

function runInChild(): void {
  const send = (message: FromChild) => process.send?.(message);
  let run: ReturnType<typeof runner> | undefined;
  process.on('message', (message: ToChild) => {
    if (message.type === 'side') run = runner(message.side);
    else if (run) {
      const meter = windowMeter(message.window);
      const started = () => {
        meter.begin();
        send({ type: 'started' });
      };
      run(message.ms, message.rate, started)
        .then((cost) => ({ ...cost, windowCpuMicros: meter.end() }))
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
