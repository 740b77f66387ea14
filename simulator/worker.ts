// Child processes for big fleets: each runs a device group (its own pools, source address and
// descriptor budget) and ships metric deltas to the parent once a second over IPC.
// This file is both the parent-side launcher and the child's entry point.
import type { ChildProcess } from 'node:child_process';
import { forkModule } from './child.js';
import { startGroup, type GroupConfig } from './group.js';
import { createRecorder, type MetricsDelta } from './metrics.js';

export type ToWorker =
  | { type: 'start'; config: GroupConfig }
  | { type: 'steady'; at: number }
  | { type: 'window'; end: number }
  | { type: 'drain' }
  | { type: 'end' };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'delta'; delta: MetricsDelta; rss: number }
  | { type: 'drained' }
  | { type: 'done'; delta: MetricsDelta; rss: number; cpuMicros: number; connections: { peak: number; opened: number } }
  | { type: 'error'; message: string };

export interface WorkerHandle {
  /** Resolves once the child has loaded and its devices are starting. */
  ready: Promise<void>;
  /** Requests starting at or after `at` (clock.ts ms) count in the steady state. */
  steadyFrom(at: number): void;
  /** Completions after `at` count in no rate. */
  windowEnd(at: number): void;
  /** Ask the group to issue nothing new; resolves once its measured requests in flight have ended (ask again: see Group.drain). */
  drain(): Promise<void>;
  /** Ask the group to end; resolves with the worker's CPU time and connections, once its last delta is in. */
  end(): Promise<{ cpuMicros: number; connections: { peak: number; opened: number } }>;
  kill(): void;
}

const DELTA_INTERVAL_MS = 1000;

export function spawnWorker(config: GroupConfig, onDelta: (delta: MetricsDelta, rss: number) => void, onError: (message: string) => void): WorkerHandle {
  const child: ChildProcess = forkModule(import.meta.url, ['--dhi-simulator-worker']);
  let finished: ((value: { cpuMicros: number; connections: { peak: number; opened: number } }) => void) | undefined;
  let failed: ((error: Error) => void) | undefined;
  let done = false;
  let onReady: () => void = () => {};
  // One answer per drain asked, in the order asked.
  const drains: (() => void)[] = [];
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.on('message', (message: FromWorker) => {
    if (message.type === 'ready') onReady();
    else if (message.type === 'error') onError(message.message);
    else if (message.type === 'drained') drains.shift()?.();
    else {
      onDelta(message.delta, message.rss);
      if (message.type === 'done') {
        done = true;
        finished?.({ cpuMicros: message.cpuMicros, connections: message.connections });
      }
    }
  });
  child.on('exit', (code) => {
    if (!done) {
      const error = new Error(`simulator worker exited with code ${code} before finishing`);
      onError(error.message);
      failed?.(error);
      onReady();
      for (const drained of drains.splice(0)) drained();
    }
  });
  const tell = (message: ToWorker) => child.connected && child.send(message);
  child.send({ type: 'start', config } satisfies ToWorker);
  return {
    ready,
    steadyFrom(at) {
      tell({ type: 'steady', at });
    },
    windowEnd(end) {
      tell({ type: 'window', end });
    },
    drain() {
      if (child.exitCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        drains.push(resolve);
        tell({ type: 'drain' });
      });
    },
    end() {
      return new Promise((resolve, reject) => {
        if (child.exitCode !== null && !done) return reject(new Error('simulator worker is gone'));
        finished = resolve;
        failed = reject;
        tell({ type: 'end' });
      });
    },
    kill() {
      if (child.exitCode === null) child.kill();
    },
  };
}

function runChild(): void {
  const recorder = createRecorder(true);
  // CPU counts from the start of the work, not from loading the modules.
  let cpuStart = process.cpuUsage();
  const send = (message: FromWorker) => process.send?.(message);
  let group: ReturnType<typeof startGroup> | undefined;
  let timer: NodeJS.Timeout | undefined;
  process.on('message', async (message: ToWorker) => {
    try {
      if (message.type === 'start') {
        cpuStart = process.cpuUsage();
        // The last device online is news the engine waits for (the end of the warm-up): send it at once.
        group = startGroup(message.config, recorder, () => send({ type: 'delta', delta: recorder.drain(), rss: process.memoryUsage.rss() }));
        send({ type: 'ready' });
        timer = setInterval(() => send({ type: 'delta', delta: recorder.drain(), rss: process.memoryUsage.rss() }), DELTA_INTERVAL_MS);
      } else if (message.type === 'steady') recorder.steadyFrom(message.at);
      else if (message.type === 'window') recorder.windowEnd(message.end);
      else if (message.type === 'drain') {
        await group?.drain();
        send({ type: 'drained' });
      } else if (message.type === 'end') {
        if (timer) clearInterval(timer);
        group?.end();
        const cpu = process.cpuUsage(cpuStart);
        send({ type: 'done', delta: recorder.drain(), rss: process.memoryUsage.rss(), cpuMicros: cpu.user + cpu.system, connections: group?.connections() ?? { peak: 0, opened: 0 } });
        process.disconnect();
      }
    } catch (error) {
      send({ type: 'error', message: (error as Error).stack ?? String(error) });
      process.exitCode = 1;
      process.disconnect();
    }
  });
  // Ctrl-C reaches the whole process group: the parent decides when the group stops.
  process.on('SIGINT', () => {});
  // The parent going away ends the child too.
  process.on('disconnect', () => {
    if (timer) clearInterval(timer);
    group?.end();
    process.exit();
  });
}

if (process.argv.includes('--dhi-simulator-worker') && process.send) runChild();
