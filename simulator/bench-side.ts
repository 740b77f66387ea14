// One measured side of `dhi bench --simulator` (autocannon, the paced floor or dhi simulate) in a
// child process of its own, so that no side pays for another: the garbage one side leaves, the
// major GCs it provokes and the code it compiles stay in its own process. The child runs its side
// once unmeasured (V8 is still optimizing at a few hundred requests a second many seconds into a
// run), then each measured run in turn, and reports its own process.cpuUsage() over each run with
// the requests that run made. The parent forks it, sends the side, and waits for the figures.
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

interface Job {
  side: BenchSide;
  warmUpMs: number;
  runsMs: number[];
}

type FromChild = { type: 'ready' } | { type: 'measured'; runs: RunCost[] } | { type: 'error'; message: string };

// Started without V8's memory reducer: some seconds after a mark-compact that left the heap larger
// than at its last reduction, it runs up to three more mark-compacts (~80 ms of main thread plus
// concurrent marking) to shrink the heap, and whether they fell into a measured run or after it
// decided the round. A forced GC before each run instead is such a mark-compact and arms the
// reducer itself. Measured on the mixed side (2 rounds, exclusive; marginal µs a request, reducing
// GCs in the child): no memory reducer 151.1 / 142.9, none; a forced GC before each run 228.6 /
// 185.1, two each; neither 152.9 / 186.1, none then two. Every side gets the same options.
const CHILD_NODE_OPTIONS = ['--no-memory-reducer'];

/** Runs `side` in a fresh child: once for `warmUpMs` unmeasured (0: not at all), then for each of `runsMs`; the cost of each measured run. */
export function measureSide(side: BenchSide, warmUpMs: number, runsMs: number[]): Promise<RunCost[]> {
  const child = forkModule(import.meta.url, ['--dhi-bench-side'], CHILD_NODE_OPTIONS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: FromChild) => {
      if (message.type === 'ready') child.send({ side, warmUpMs, runsMs } satisfies Job);
      else if (message.type === 'measured') resolve(message.runs);
      else reject(new Error(`the bench's ${side.kind} run failed: ${message.message}`));
    });
    // After the answer this settles nothing; before it, the child died without one.
    child.once('exit', (code, signal) => reject(new Error(`the bench's ${side.kind} run exited with ${signal ?? `code ${code}`} before reporting`)));
  });
}

/** A run of the side for `ms`, measured over its load (the simulator's: over its run window, without creating and deleting the fleet). */
function runner(side: BenchSide): (ms: number) => Promise<RunCost> {
  if (side.kind === 'simulator') {
    return async (durationMs) => {
      const { summary, result } = await simulate({ ...side.config, durationMs }, [], side.reportDir);
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
      : async (ms: number) => (await pacedFloorRun({ ...side, durationMs: ms })).answered;
  return async (ms) => {
    const start = process.cpuUsage();
    const requests = await load(ms);
    const cpu = process.cpuUsage(start);
    return { requests, cpuMicros: cpu.user + cpu.system };
  };
}

async function runJob({ side, warmUpMs, runsMs }: Job): Promise<FromChild> {
  try {
    const run = runner(side);
    if (warmUpMs > 0) await run(warmUpMs);
    const runs: RunCost[] = [];
    for (const ms of runsMs) runs.push(await run(ms));
    return { type: 'measured', runs };
  } catch (error) {
    return { type: 'error', message: (error as Error).message };
  }
}

function runInChild(): void {
  // The process exits once its answer is written, whatever a side left open.
  process.once('message', (job: Job) => void runJob(job).then((answer) => process.send?.(answer, () => process.exit(0))));
  process.send?.({ type: 'ready' } satisfies FromChild);
}

if (process.argv.includes('--dhi-bench-side') && process.send) runInChild();
