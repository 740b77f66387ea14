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

export async function startTargetProcess(plan: TargetPlan): Promise<TargetProcess> {
  const child = await forkServer<FromTarget>('the calibration target', import.meta.url, ['--dhi-calibration-target', JSON.stringify(plan)]);
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
