// One measured side of `dhi bench --simulator` (autocannon, the paced floor or dhi simulate) in a
// child process of its own, so that no side pays for another: the garbage one side leaves, the
// major GCs it provokes and the code it compiles stay in its own process. The child runs its side
// once per `run` message, for the length asked, and answers with its own process.cpuUsage() over the
// run and the requests the run made; it says when each run's load begins, so that the parent can
// start another side's run beside it (bench-cost.ts runs the paced floor and dhi simulate at the
// same time). The parent forks it, sends the side, then the runs, and ends it.
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
  /** The child's CPU (user + system, every thread) over the run. */
  cpuMicros: number;
}

/** A side's run in its child: `started` once its load begins (dhi simulate's after its fleet is up), `cost` once it is over. */
export interface SideRun {
  started: Promise<void>;
  cost: Promise<RunCost>;
}

export interface SideChild {
  /** One run of `ms`; `rate` (the paced floor's) replaces the side's own for this run. One run at a time. */
  run(ms: number, rate?: number): SideRun;
  /** Ends the child (its runs are over): it exits when its channel closes. */
  close(): void;
}

type ToChild = { type: 'side'; side: BenchSide } | { type: 'run'; ms: number; rate?: number };
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
  const run = (ms: number, rate?: number): SideRun => {
    [started, cost] = [deferred<void>(), deferred<RunCost>()];
    // A run that fails after its load began rejects `cost` alone; `started` is settled by then.
    started.promise.catch(() => {});
    if (exited) fail(exited);
    else child.send({ type: 'run', ms, rate } satisfies ToChild);
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

/** A run of the side for `ms` at `rate`, measured over its load (the simulator's: over its run window, without creating and deleting the fleet); `started` when the load begins. */
function runner(side: BenchSide): (ms: number, rate: number | undefined, started: () => void) => Promise<RunCost> {
  if (side.kind === 'simulator') {
    return async (durationMs, _rate, started) => {
      const onEvent = (event: { type: string; phase?: string }) => event.type === 'phase' && event.phase === 'running' && started();
      const { summary, result } = await simulate({ ...side.config, durationMs }, [], side.reportDir, onEvent);
      return { requests: summary.simulator.requests, cpuMicros: result.simulator.cpuMicros };
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
    const start = process.cpuUsage();
    started();
    const requests = await load(ms, rate ?? side.rate);
    const cpu = process.cpuUsage(start);
    return { requests, cpuMicros: cpu.user + cpu.system };
  };
}

function runInChild(): void {
  const send = (message: FromChild) => process.send?.(message);
  let run: ReturnType<typeof runner> | undefined;
  process.on('message', (message: ToChild) => {
    if (message.type === 'side') run = runner(message.side);
    else if (run) {
      run(message.ms, message.rate, () => send({ type: 'started' })).then(
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
