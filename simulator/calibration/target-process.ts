// The calibration target in a child process of its own, so that it shares no event loop with the
// simulator it measures: started with a plan, asked for its records at the end of the run.
import { forkServer, serveInChild } from '../child-server.js';
import { loadTemplates } from '../routes.js';
import { createKnownTarget, type TargetPlan, type TargetRecords } from './known-target.js';

export interface TargetProcess {
  url: string;
  records(): Promise<TargetRecords>;
  close(): Promise<void>;
}

type FromTarget = { type: 'listening'; url: string } | { type: 'records'; records: TargetRecords };

/**
 * The target runs without V8's optimizing compilers. With them, its hot code (Node's HTTP server,
 * its handlers) is compiled on background threads all through the run, 10-20 jobs a second of
 * 2-20 ms each; on a 2-core machine a job holding one core while the simulator holds the other
 * leaves the target's main thread waiting for a core when a request arrives, and that wait, before
 * the target stamps the arrival, was counted as the simulator's (traced with perf sched: the
 * steady state's 2-7 ms excesses of reported over held were such waits). Interpreted and baseline
 * code is slower per request, but does its work where it is measured.
 */
const TARGET_NODE_OPTIONS = ['--no-turbofan', '--no-maglev'];

export async function startTargetProcess(plan: TargetPlan): Promise<TargetProcess> {
  const child = await forkServer<FromTarget>('the calibration target', import.meta.url, ['--dhi-calibration-target', JSON.stringify(plan)], TARGET_NODE_OPTIONS);
  return { url: child.listening.url, records: async () => (await child.ask('records')).records, close: child.close };
}

function runChild(plan: TargetPlan): Promise<void> {
  return serveInChild<FromTarget>(async () => {
    const target = createKnownTarget(await loadTemplates(), plan);
    await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
    const { port } = target.server.address() as { port: number };
    return {
      listening: { type: 'listening', url: `http://127.0.0.1:${port}` },
      answer: (type) => (type === 'records' ? { type: 'records', records: target.records() } : undefined),
    };
  });
}

const at = process.argv.indexOf('--dhi-calibration-target');
if (at >= 0 && process.send) void runChild(JSON.parse(process.argv[at + 1]) as TargetPlan);
