// The calibration target in a child process of its own, so that it shares no event loop with the
// simulator it measures: started with a plan, asked for its records at the end of the run.
import type { ChildProcess } from 'node:child_process';
import { forkModule } from '../child.js';
import { loadTemplates } from '../routes.js';
import { createKnownTarget, type TargetPlan, type TargetRecords } from './known-target.js';

export interface TargetProcess {
  url: string;
  records(): Promise<TargetRecords>;
  close(): Promise<void>;
}

type FromTarget = { type: 'listening'; url: string } | { type: 'records'; records: TargetRecords } | { type: 'error'; message: string };

export function startTargetProcess(plan: TargetPlan): Promise<TargetProcess> {
  const child: ChildProcess = forkModule(import.meta.url, ['--dhi-calibration-target', JSON.stringify(plan)]);
  const records = () =>
    new Promise<TargetRecords>((resolve, reject) => {
      const onMessage = (message: FromTarget) => {
        if (message.type !== 'records') return;
        child.off('message', onMessage);
        resolve(message.records);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`the calibration target exited with code ${code}`)));
      child.send({ type: 'records' });
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the calibration target exited with code ${code}`)));
    child.once('message', (message: FromTarget) => {
      if (message.type === 'error') return reject(new Error(`the calibration target failed: ${message.message}`));
      if (message.type !== 'listening') return;
      resolve({
        url: message.url,
        records,
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

async function runChild(plan: TargetPlan): Promise<void> {
  try {
    const target = createKnownTarget(await loadTemplates(), plan);
    target.server.listen(0, '127.0.0.1', () => {
      const address = target.server.address() as { port: number };
      process.send?.({ type: 'listening', url: `http://127.0.0.1:${address.port}` } satisfies FromTarget);
    });
    process.on('message', (message: { type: string }) => {
      if (message.type === 'records') process.send?.({ type: 'records', records: target.records() } satisfies FromTarget);
    });
    const stop = () => process.exit(0);
    process.once('SIGTERM', stop);
    process.once('disconnect', stop);
  } catch (error) {
    process.send?.({ type: 'error', message: (error as Error).stack ?? String(error) } satisfies FromTarget);
    process.exit(1);
  }
}

const at = process.argv.indexOf('--dhi-calibration-target');
if (at >= 0 && process.send) void runChild(JSON.parse(process.argv[at + 1]) as TargetPlan);
