// The servers `dhi bench` measures, each in a child process of its own (so autocannon and the
// server do not share an event loop): the reference server on a fresh database with a fleet of
// devices (one, or one --devices fleet size), the bare Fastify baseline answering the same paths
// with no work behind them (any token), or a bare durable route (bench-durable.ts: telemetry only,
// any token, each request acknowledged once its group-committed SQLite inserts are synced; 'durable'
// keeps each body whole, 'indexed' each key's value in a table by token, key and time). The
// bench asks each for its CPU time and, around a measured run, has the reference server fold its
// telemetry log (bench.ts withServerCpu).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { collectGarbage } from '../cli/garbage.js';
import { forkServer, serveInChild } from './child-server.js';
import type { ServerMemory } from './bench-polls.js';
import type { TelemetryLogBooks } from '../reference-server/store/types.js';
import type { DurableLayout } from './bench-durable.js';

export type BenchServerKind = 'reference' | 'baseline' | 'durable' | 'indexed';

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
  /**
   * The reference server folds every row waiting in its telemetry log (Store.foldTelemetryLog) and
   * answers with the log's books once the fold and what follows it are over (quiet()); the baselines
   * keep no log: undefined, at once.
   */
  foldTelemetryLog(): Promise<TelemetryLogBooks | undefined>;
  close(): Promise<void>;
}

type FromBenchServer =
  | { type: 'listening'; url: string; tokens: string[] }
  | ({ type: 'memory' } & ServerMemory)
  | { type: 'cpu'; micros: number }
  | { type: 'fold'; books?: TelemetryLogBooks };

/** What runs in the child: a server and what the parent asks of it. */
interface ServerInChild {
  url: string;
  tokens: string[];
  openPolls(): number;
  /** The reference server's Store.foldTelemetryLog (none for the baselines). */
  foldTelemetryLog?(): Promise<TelemetryLogBooks>;
  close(): Promise<void>;
}

/** `devices`: the reference server's fleet (created before it answers). */
export async function startBenchServer(kind: BenchServerKind, devices = 1): Promise<BenchServer> {
  const child = await forkServer<FromBenchServer>(`the ${kind} bench server`, import.meta.url, ['--dhi-bench-server', kind, String(devices)]);
  const { url, tokens } = child.listening;
  return {
    url,
    token: tokens[0],
    tokens,
    memory: async () => {
      const { rssBytes, openPolls } = await child.ask('memory');
      return { rssBytes, openPolls };
    },
    cpuMicros: async () => (await child.ask('cpu')).micros,
    foldTelemetryLog: async () => (await child.ask('fold')).books,
    close: child.close,
  };
}

async function referenceServer(devices: number): Promise<ServerInChild> {
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
    foldTelemetryLog: () => ctx.store.foldTelemetryLog(),
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The same routes with nothing behind them: what Fastify alone costs on this machine. */
async function baselineServer(): Promise<ServerInChild> {
  const app = Fastify({ logger: false });
  app.post('/api/v1/:token/telemetry', async (_request, reply) => reply.code(200).send());
  app.get('/api/v1/:token/attributes', async () => ({}));
  app.get('/api/v1/:token/attributes/updates', (_request, reply) => {
    setTimeout(() => reply.code(408).send(), 1);
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, tokens: ['baseline'], openPolls: () => 0, close: () => app.close() };
}

/** The bare route's telemetry, made durable: group-committed inserts on a fresh SQLite file. */
async function durableServer(layout: DurableLayout): Promise<ServerInChild> {
  const { durableRoute } = await import('./bench-durable.js');
  const dir = mkdtempSync(join(tmpdir(), 'dhi-bench-durable-'));
  const { app } = durableRoute(join(dir, 'bare.db'), layout);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    tokens: [layout === 'message' ? 'durable' : 'indexed'],
    openPolls: () => 0,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const SERVERS: Record<BenchServerKind, (devices: number) => Promise<ServerInChild>> = {
  reference: referenceServer,
  baseline: baselineServer,
  durable: () => durableServer('message'),
  indexed: () => durableServer('keys'),
};

/** CPU time (user + system, every thread) this process has used so far, in µs. */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** quiet(): this much CPU over QUIET_MS at most (5 % of a core), waiting QUIET_MAX_MS at most. */
const QUIET_MS = 50;
const QUIET_CPU_MICROS = 2_500;
const QUIET_MAX_MS = 2_000;

/**
 * Resolves once this process has gone quiet. A fold of every row is followed by the WAL checkpoint
 * of its pages on a thread of its own (store/wal-checkpointer.ts), which the fold's answer does not
 * wait for: ~80 ms of CPU within ~200 ms after a fold of ~140,000 rows from 10,000 devices. It is the
 * fold's cost: after a round it is counted in, and before one it is kept out.
 */
async function quiet(): Promise<void> {
  const until = performance.now() + QUIET_MAX_MS;
  for (;;) {
    const from = cpuMicros();
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    if (cpuMicros() - from < QUIET_CPU_MICROS || performance.now() >= until) return;
  }
}

/** The 'fold' ask's answer: the reference server's fold and books, once it is quiet. */
async function folded(server: ServerInChild): Promise<FromBenchServer> {
  if (!server.foldTelemetryLog) return { type: 'fold' };
  const books = await server.foldTelemetryLog();
  await quiet();
  return { type: 'fold', books };
}

function runChild(kind: BenchServerKind, devices: number): Promise<void> {
  return serveInChild<FromBenchServer>(async () => {
    const server = await SERVERS[kind](devices);
    return {
      listening: { type: 'listening', url: server.url, tokens: server.tokens },
      answer(type) {
        if (type === 'cpu') return { type: 'cpu', micros: cpuMicros() };
        if (type === 'fold') return folded(server);
        if (type !== 'memory') return undefined;
        // Memory is read after a full collection, so that garbage does not count as cost.
        collectGarbage();
        return { type: 'memory', rssBytes: process.memoryUsage().rss, openPolls: server.openPolls() };
      },
      close: server.close,
    };
  });
}

const at = process.argv.indexOf('--dhi-bench-server');
if (at >= 0 && process.send) void runChild(process.argv[at + 1] as BenchServerKind, Number(process.argv[at + 2]));
