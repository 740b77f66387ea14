// The servers `dhi bench` measures, each in a child process of its own (so autocannon and the
// server do not share an event loop): the reference server on a fresh database with a fleet of
// devices (one, or the largest --devices), or the bare Fastify baseline answering the same paths
// with no work behind them (any token).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import Fastify from 'fastify';
import { forkModule } from './child.js';
import type { ServerMemory } from './bench-polls.js';

export type BenchServerKind = 'reference' | 'baseline';

export interface BenchServer {
  url: string;
  /** A device token valid on this server. */
  token: string;
  /** The tokens of the reference server's fleet, the first being `token` (the baseline: `token` alone). */
  tokens: string[];
  /** Resident memory after a full GC, and the attribute polls held open. */
  memory(): Promise<ServerMemory>;
  /** CPU time (user + system, every thread) the server process has used so far, in µs. */
  cpuMicros(): Promise<number>;
  close(): Promise<void>;
}

type FromBenchServer =
  | { type: 'listening'; url: string; tokens: string[] }
  | { type: 'error'; message: string }
  | ({ type: 'memory' } & ServerMemory)
  | { type: 'cpu'; micros: number };
type Answer<T extends 'memory' | 'cpu'> = Extract<FromBenchServer, { type: T }>;

interface ChildServer {
  url: string;
  tokens: string[];
  openPolls(): number;
  close(): Promise<void>;
}

/** `devices`: the reference server's fleet (created before it answers). */
export function startBenchServer(kind: BenchServerKind, devices = 1): Promise<BenchServer> {
  // --expose-gc: memory is read after a full collection, so that garbage does not count as cost.
  const child: ChildProcess = forkModule(import.meta.url, ['--dhi-bench-server', kind, String(devices)], ['--expose-gc']);
  const ask = <T extends 'memory' | 'cpu'>(type: T) =>
    new Promise<Answer<T>>((resolve) => {
      const onMessage = (message: FromBenchServer) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message as Answer<T>);
      };
      child.on('message', onMessage);
      child.send({ type });
    });
  const memory = async (): Promise<ServerMemory> => {
    const { rssBytes, openPolls } = await ask('memory');
    return { rssBytes, openPolls };
  };
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ${kind} bench server exited with code ${code}`)));
    child.once('message', (message: FromBenchServer) => {
      if (message.type === 'error') return reject(new Error(`the ${kind} bench server failed: ${message.message}`));
      if (message.type !== 'listening') return;
      resolve({
        url: message.url,
        token: message.tokens[0],
        tokens: message.tokens,
        memory,
        cpuMicros: async () => (await ask('cpu')).micros,
        close: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

async function referenceServer(devices: number): Promise<ChildServer> {
  const { startServer } = await import('../reference-server/server.js');
  const { newDevice } = await import('../reference-server/device-records.js');
  const dir = mkdtempSync(join(tmpdir(), 'dhi-bench-'));
  // One listener only, so it may take nearly all of the process's 20,000 descriptors (--hold-polls).
  // Idle connections kept 20 s (Tomcat, which serves ThingsBoard's HTTP transport, keeps them at
  // least that long by default; Node's default is 5 s): the simulator's devices (a connection set
  // each, telemetry every 10 s in the mixed scenario) keep theirs instead of reconnecting per request.
  const server = await startServer({ host: '127.0.0.1', port: 0, httpsPort: -1, db: join(dir, 'dhi.db'), logLevel: 'silent', maxConnections: 19_800, keepAliveTimeoutMs: 20_000 });
  // The devices go straight into the store: the bench measures the device API, not the control API.
  const ctx = server.app.dhi;
  const profileId = ctx.store.defaultProfile().id;
  const fleet = Array.from({ length: devices }, (_, i) => newDevice({ name: devices === 1 ? 'bench-device' : `bench-device-${i}`, profileId }));
  await ctx.store.write(() => fleet.forEach((device) => ctx.store.insertDevice(device)));
  return {
    url: server.httpUrl,
    tokens: fleet.map((device) => device.token),
    openPolls: () => ctx.polls.size().attributes,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The same routes with nothing behind them: what Fastify alone costs on this machine. */
async function baselineServer(): Promise<ChildServer> {
  const app = Fastify({ logger: false });
  app.post('/api/v1/:token/telemetry', async (_request, reply) => reply.code(200).send());
  app.get('/api/v1/:token/attributes', async () => ({}));
  app.get('/api/v1/:token/attributes/updates', (_request, reply) => {
    setTimeout(() => reply.code(408).send(), 1);
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, tokens: ['baseline'], openPolls: () => 0, close: () => app.close() };
}

async function runChild(kind: BenchServerKind, devices: number): Promise<void> {
  try {
    const server = kind === 'reference' ? await referenceServer(devices) : await baselineServer();
    process.send?.({ type: 'listening', url: server.url, tokens: server.tokens } satisfies FromBenchServer);
    process.on('message', (message: { type: string }) => {
      if (message.type === 'cpu') {
        const { user, system } = process.cpuUsage();
        process.send?.({ type: 'cpu', micros: user + system } satisfies FromBenchServer);
        return;
      }
      if (message.type !== 'memory') return;
      (globalThis as { gc?: () => void }).gc?.();
      process.send?.({ type: 'memory', rssBytes: process.memoryUsage().rss, openPolls: server.openPolls() } satisfies FromBenchServer);
    });
    const stop = () => void server.close().finally(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('disconnect', stop);
  } catch (error) {
    process.send?.({ type: 'error', message: (error as Error).stack ?? String(error) } satisfies FromBenchServer);
    process.exit(1);
  }
}

const at = process.argv.indexOf('--dhi-bench-server');
if (at >= 0 && process.send) void runChild(process.argv[at + 1] as BenchServerKind, Number(process.argv[at + 2]));
