// `dhi bench`: autocannon against chosen hot paths of a reference server (started in a child
// process, or at --target), and with --baseline against a bare Fastify route in the same run.
// Results go to reports/bench/<timestamp>.json. Speed is measured here, never asserted in tests.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createControl } from './control.js';
import { measureSimulatorCost, type SimulatorCost } from './bench-cost.js';
import { startBenchServer, type BenchServer } from './bench-server.js';
import { fill, loadTemplates, type Templates } from './routes.js';

export type BenchOp = 'telemetry' | 'attributes' | 'longpoll';
const OPS: readonly BenchOp[] = ['telemetry', 'attributes', 'longpoll'];

export interface BenchOptions {
  target?: string;
  ops: string;
  duration: number;
  connections: number;
  pipelining: number;
  baseline: boolean;
  username: string;
  password: string;
  token?: string;
  reportDir: string;
  /** Also measure the simulator's CPU per request next to autocannon's, at this telemetry rate (true: the default rate). */
  simulator?: number | true;
}

export interface BenchFigures {
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

const DEFAULT_COST_RATE = 1000;
const TELEMETRY_BODY = JSON.stringify({ pulseCounter: 123456, leakage: false, batteryLevel: 87.5 });

function requestFor(op: BenchOp, t: Templates, token: string): { method: 'GET' | 'POST'; path: string; body?: string } {
  const at = (template: string) => fill(template, { accessToken: token });
  if (op === 'telemetry') return { method: 'POST', path: at(t.device.telemetry), body: TELEMETRY_BODY };
  if (op === 'attributes') return { method: 'GET', path: at(t.device.attributes) };
  // Long-poll turnover: a poll that times out at once (408) measures the waiter's set-up and tear-down.
  return { method: 'GET', path: `${at(t.device.attributeUpdates)}?timeout=1` };
}

async function cannon(url: string, op: BenchOp, t: Templates, token: string, options: BenchOptions): Promise<BenchFigures> {
  const request = requestFor(op, t, token);
  const result = await autocannon({
    url: url + request.path,
    method: request.method,
    body: request.body,
    headers: { 'content-type': 'application/json' },
    connections: options.connections,
    pipelining: options.pipelining,
    duration: options.duration / 1000,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

export function parseOps(list: string): BenchOp[] {
  const ops = list.split(',').map((s) => s.trim()).filter(Boolean);
  for (const op of ops) if (!(OPS as readonly string[]).includes(op)) throw new Error(`--ops: unknown operation "${op}", expected ${OPS.join(', ')}`);
  return ops as BenchOp[];
}

async function tokenFor(options: BenchOptions, t: Templates): Promise<string> {
  if (options.token) return options.token;
  const control = createControl({ url: options.target as string, username: options.username, password: options.password, templates: t.control, connections: 2, requestTimeoutMs: 30_000 });
  try {
    await control.login();
    return (await control.createDevice(`bench-${Date.now().toString(36)}`)).token;
  } finally {
    await control.close();
  }
}

export async function runBench(options: BenchOptions): Promise<void> {
  let ops: BenchOp[];
  try {
    ops = parseOps(options.ops);
  } catch (error) {
    console.error(`dhi bench: ${(error as Error).message}`);
    process.exitCode = 2;
    return;
  }
  const templates = await loadTemplates();
  const started = new Date();
  const servers: BenchServer[] = [];
  const results: Record<string, BenchFigures> = {};
  const baseline: Record<string, BenchFigures> = {};
  let simulatorCost: SimulatorCost | undefined;
  try {
    let url: string;
    let token: string;
    if (options.target) {
      url = options.target;
      token = await tokenFor(options, templates);
    } else {
      const server = await startBenchServer('reference');
      servers.push(server);
      ({ url, token } = server);
    }
    for (const op of ops) {
      console.log(`bench ${op}: ${url} (${options.connections} connections, ${options.duration / 1000}s)`);
      results[op] = await cannon(url, op, templates, token, options);
    }
    if (options.simulator !== undefined) {
      const rate = options.simulator === true ? DEFAULT_COST_RATE : options.simulator;
      console.log(`bench simulator cost: autocannon, then dhi simulate, each at ${rate} telemetry msg/s for ${options.duration / 1000}s; then the mixed scenario`);
      simulatorCost = await measureSimulatorCost(url, templates, token, { rate, durationMs: options.duration, connections: options.connections, reportDir: join(options.reportDir, 'simulate') });
    }
    if (options.baseline) {
      const bare = await startBenchServer('baseline');
      servers.push(bare);
      for (const op of ops) {
        console.log(`bench ${op}: bare Fastify baseline ${bare.url}`);
        baseline[op] = await cannon(bare.url, op, templates, bare.token, options);
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
  const ratio: Record<string, number> = {};
  for (const op of Object.keys(baseline)) ratio[op] = Math.round((results[op].requestsPerSecond / Math.max(1, baseline[op].requestsPerSecond)) * 1000) / 1000;
  const report = {
    tool: 'dhi bench',
    startedAt: started.toISOString(),
    target: options.target ?? 'reference server in a child process (fresh SQLite file)',
    node: process.version,
    cpus: cpus().length,
    connections: options.connections,
    pipelining: options.pipelining,
    durationMs: options.duration,
    results,
    baseline: options.baseline ? baseline : undefined,
    ratio: options.baseline ? ratio : undefined,
    simulatorCost,
  };
  mkdirSync(options.reportDir, { recursive: true });
  const file = join(options.reportDir, `${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  for (const op of ops) {
    const r = results[op];
    const b = baseline[op];
    const non2xx = op === 'longpoll' ? `408 ${r.non2xx} (expected)` : `non-2xx ${r.non2xx}`;
    const line = `${op.padEnd(10)} ${String(r.requestsPerSecond).padStart(7)} req/s  p50 ${r.latencyMs.p50} ms  p99 ${r.latencyMs.p99} ms  ${non2xx}  errors ${r.errors}`;
    console.log(b ? `${line}  | bare Fastify ${b.requestsPerSecond} req/s, ratio ${ratio[op]}` : line);
  }
  if (simulatorCost) {
    const { autocannon: a, simulator: s, mixed: m } = simulatorCost;
    console.log(`CPU per request on telemetry at ${simulatorCost.rate}/s: autocannon ${a.cpuMicrosPerRequest} µs (${a.requests} requests), dhi simulate ${s.cpuMicrosPerRequest} µs (${s.requests}), ratio ${simulatorCost.ratio}`);
    console.log(`CPU per request, mixed scenario (${m.devices} devices, rpc ${m.rpcRate}/s, attributes ${m.attrRate}/s): ${m.cpuMicrosPerRequest} µs (${m.requests} requests)`);
  }
  console.log(`results: ${file}`);
}
