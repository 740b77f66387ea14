// `dhi bench`: autocannon against chosen hot paths of a reference server (started in a child
// process, or at --target), and with --baseline against a bare Fastify route in the same run (and, for
// telemetry, a bare durable route: bench-durable.ts), alternating for --rounds rounds (median kept); --devices spreads the requests over fleets of
// distinct devices (bench-fleet.ts), one set of figures per fleet size; --hold-polls measures open
// long polls. Results go to reports/bench/<timestamp>.json. Speed is measured here, never asserted
// in tests.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Request as AutocannonRequest } from 'autocannon';
import { request } from 'undici';
import { EXIT } from '../cli/exit-codes.js';
import { megabytes } from '../cli/sizes.js';
import { unreachableReason } from '../cli/unreachable.js';
import { createTargetFleet, fleetRequests, type TargetFleet } from './bench-fleet.js';
import { measureSimulatorCost, medianBy, SHORT_MS, type CostFigures, type RoundFigures, type SimulatorCost } from './bench-cost.js';
import { startBenchServer, type BenchServer } from './bench-server.js';
import { fill, loadTemplates, type Templates } from './routes.js';
import { holdPolls, type PollFigures } from './bench-polls.js';
import { round1, round3 } from './report/format.js';

export type BenchOp = 'telemetry' | 'attributes' | 'longpoll';
const OPS: readonly BenchOp[] = ['telemetry', 'attributes', 'longpoll'];

export interface BenchOptions {
  target?: string;
  ops: string;
  duration: number;
  connections: number;
  pipelining: number;
  baseline: boolean;
  /** Alternating rounds per side with --baseline; the median round counts. */
  rounds: number;
  /** Open long polls to hold on the reference server while telemetry is measured (0: none). */
  holdPolls: number;
  username: string;
  password: string;
  token?: string;
  /**
   * Fleet sizes (--devices): each is measured with requests spread over that many distinct devices
   * and values of their own per request. Absent: one device and one fixed request.
   */
  devices?: number[];
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
  /** The server's CPU time (every thread) over the run, per request; when dhi bench started the server. */
  serverCpuMicrosPerRequest?: number;
}

/**
 * Server CPU per request, median of the rounds, beside the throughput: what the server itself spends
 * on a request, apart from the load generator that shares the machine with it. `ratio`: the bare
 * route's over the reference server's, read like the throughput ratio (1: as cheap as the bare route).
 */
export interface ServerCpu {
  reference: number;
  baseline: number;
  ratio: number;
  rounds: { reference: number[]; baseline: number[] };
}

/** One fleet size's figures per operation (with --devices; without, the report's own fields). */
export interface FleetFigures {
  results: Record<string, BenchFigures>;
  baseline?: Record<string, BenchFigures>;
  ratio?: Record<string, number>;
  serverCpu?: Record<string, ServerCpu>;
  /** Telemetry with --baseline: the bare durable route's figures, and both ratios against it. */
  durableBaseline?: Record<string, BenchFigures>;
  durableRatio?: Record<string, number>;
  durableServerCpu?: Record<string, ServerCpu>;
  roundsRequestsPerSecond?: Record<string, { reference: number[]; baseline: number[]; durable?: number[] }>;
}

type Runs = Record<string, { reference: BenchFigures[]; baseline: BenchFigures[]; durable: BenchFigures[] }>;

const DEFAULT_COST_RATE = 1000;
const TELEMETRY_BODY = JSON.stringify({ pulseCounter: 123456, leakage: false, batteryLevel: 87.5 });

/** What autocannon sends: one fixed request, or (requests) a fleet's, which set their own paths. */
interface Load {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  requests?: AutocannonRequest[];
}

function requestFor(op: BenchOp, t: Templates, token: string): Load {
  const at = (template: string) => fill(template, { accessToken: token });
  if (op === 'telemetry') return { method: 'POST', path: at(t.device.telemetry), body: TELEMETRY_BODY };
  if (op === 'attributes') return { method: 'GET', path: at(t.device.attributes) };
  // Long-poll turnover: a poll that times out at once (408) measures the waiter's set-up and tear-down.
  return { method: 'GET', path: `${at(t.device.attributeUpdates)}?timeout=1` };
}

/** The load of one run: a fleet's (`devices` of `tokens`) or, without --devices, one fixed request to `tokens[0]`. */
function loadFor(op: BenchOp, t: Templates, tokens: readonly string[], devices: number | undefined): Load {
  if (devices === undefined) return requestFor(op, t, tokens[0]);
  return { method: op === 'telemetry' ? 'POST' : 'GET', path: '/', requests: fleetRequests(op, t, tokens, devices) };
}

async function cannon(url: string, load: Load, options: BenchOptions): Promise<BenchFigures> {
  const result = await autocannon({
    url: url + load.path,
    method: load.method,
    body: load.body,
    requests: load.requests,
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

/** `run`, with the CPU the server spent on it per request when the server is ours to ask. */
async function withServerCpu(server: BenchServer | undefined, run: () => Promise<BenchFigures>): Promise<BenchFigures> {
  if (!server) return run();
  const before = await server.cpuMicros();
  const figures = await run();
  const used = (await server.cpuMicros()) - before;
  return { ...figures, serverCpuMicrosPerRequest: figures.total > 0 ? round1(used / figures.total) : 0 };
}

export function serverCpu(reference: BenchFigures[], baseline: BenchFigures[]): ServerCpu | undefined {
  const cpu = (runs: BenchFigures[]) => runs.map((r) => r.serverCpuMicrosPerRequest).filter((v): v is number => v !== undefined);
  const rounds = { reference: cpu(reference), baseline: cpu(baseline) };
  if (rounds.reference.length === 0 || rounds.baseline.length === 0) return undefined;
  const median = (values: number[]) => medianBy(values, (v) => v);
  const [ref, bare] = [median(rounds.reference), median(rounds.baseline)];
  return { reference: ref, baseline: bare, ratio: round3(bare / Math.max(ref, 0.1)), rounds };
}

export function parseOps(list: string): BenchOp[] {
  const ops = list.split(',').map((s) => s.trim()).filter(Boolean);
  for (const op of ops) if (!(OPS as readonly string[]).includes(op)) throw new Error(`--ops: unknown operation "${op}", expected ${OPS.join(', ')}`);
  return ops as BenchOp[];
}

/** A baseline's median round, and the throughput and server CPU ratios of the reference server's to it. */
interface Comparison {
  baseline: Record<string, BenchFigures>;
  ratio: Record<string, number>;
  cpu: Record<string, ServerCpu>;
}

function compare(ops: BenchOp[], results: Record<string, BenchFigures>, runs: Runs, side: 'baseline' | 'durable'): Comparison {
  const out: Comparison = { baseline: {}, ratio: {}, cpu: {} };
  for (const op of ops) {
    if (runs[op][side].length === 0) continue;
    const baseline = (out.baseline[op] = medianRun(runs[op][side]));
    out.ratio[op] = round3(results[op].requestsPerSecond / Math.max(1, baseline.requestsPerSecond));
    const measured = serverCpu(runs[op].reference, runs[op][side]);
    if (measured) out.cpu[op] = measured;
  }
  return out;
}

const orNone = <T>(record: Record<string, T>) => (Object.keys(record).length > 0 ? record : undefined);

/** The median rounds of each operation, and with --baseline the bare routes' and both ratios against each. */
function summarise(ops: BenchOp[], runs: Runs, withBaseline: boolean): FleetFigures {
  const results = Object.fromEntries(ops.map((op) => [op, medianRun(runs[op].reference)]));
  if (!withBaseline) return { results };
  const bare = compare(ops, results, runs, 'baseline');
  const durable = compare(ops, results, runs, 'durable');
  const rps = (figures: BenchFigures[]) => figures.map((r) => r.requestsPerSecond);
  const rounds = Object.fromEntries(ops.map((op) => [op, {
    reference: rps(runs[op].reference),
    baseline: rps(runs[op].baseline),
    ...(runs[op].durable.length > 0 ? { durable: rps(runs[op].durable) } : {}),
  }]));
  return {
    results,
    baseline: bare.baseline,
    ratio: bare.ratio,
    serverCpu: orNone(bare.cpu),
    durableBaseline: orNone(durable.baseline),
    durableRatio: orNone(durable.ratio),
    durableServerCpu: orNone(durable.cpu),
    roundsRequestsPerSecond: rounds,
  };
}

function printFigures(ops: BenchOp[], figures: FleetFigures, rounds: number, devices: number | undefined): void {
  for (const op of ops) {
    const r = figures.results[op];
    const b = figures.baseline?.[op];
    const non2xx = op === 'longpoll' ? `408 ${r.non2xx} (expected)` : `non-2xx ${r.non2xx}`;
    const fleet = devices === undefined ? '' : `${String(devices).padStart(6)} ${devices === 1 ? 'device ' : 'devices'} `;
    const line = `${op.padEnd(10)} ${fleet}${String(r.requestsPerSecond).padStart(7)} req/s  p50 ${r.latencyMs.p50} ms  p99 ${r.latencyMs.p99} ms  ${non2xx}  errors ${r.errors}`;
    const median = rounds > 1 ? `median of ${rounds} alternating rounds: ` : '';
    const c = figures.serverCpu?.[op];
    const cpuLine = c ? `; server CPU ${c.reference} vs ${c.baseline} µs/request: ratio ${c.ratio}` : '';
    const ownCpu = r.serverCpuMicrosPerRequest === undefined ? '' : `  server CPU ${r.serverCpuMicrosPerRequest} µs/request`;
    console.log(b ? `${line}  | bare Fastify ${b.requestsPerSecond} req/s, ${median}ratio ${figures.ratio?.[op]}${cpuLine}` : line + ownCpu);
    const d = figures.durableBaseline?.[op];
    if (!d) continue;
    const dc = figures.durableServerCpu?.[op];
    const durableCpu = dc ? `; server CPU ${dc.reference} vs ${dc.baseline} µs/request: ratio ${dc.ratio}` : '';
    console.log(`${''.padEnd(10)} ${' '.repeat(fleet.length)}| bare durable route (group-committed SQLite insert, synchronous=FULL) ${d.requestsPerSecond} req/s, p99 ${d.latencyMs.p99} ms, ${median}ratio ${figures.durableRatio?.[op]}${durableCpu}`);
  }
}

/** The run with the median rate: one noisy round does not decide. */
export const medianRun = (runs: BenchFigures[]): BenchFigures => medianBy(runs, (r) => r.requestsPerSecond);

/** One request first: autocannon would count a dead target's failures for the whole --duration. */
async function probe(url: string): Promise<void> {
  const { body } = await request(url, { method: 'GET', headersTimeout: 10_000, bodyTimeout: 10_000 });
  await body.dump();
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
  const fleets = options.devices ?? [undefined];
  if (options.token && fleets.some((n) => n !== undefined && n > 1)) {
    console.error('dhi bench: --token names one device; leave it out with --devices above 1 (dhi bench creates the fleet)');
    process.exitCode = 2;
    return;
  }
  const templates = await loadTemplates();
  const started = new Date();
  const servers: BenchServer[] = [];
  let targetFleet: TargetFleet | undefined;
  // With --baseline the two servers alternate, round after round, so that a slow spell of the
  // machine hits both; each side's median round is kept.
  const rounds = options.baseline ? options.rounds : 1;
  const runs = new Map<number | undefined, Runs>(fleets.map((devices) => [devices, {}]));
  let polls: (PollFigures & { telemetry: BenchFigures }) | undefined;
  let simulatorCost: SimulatorCost | undefined;
  const largest = Math.max(1, ...fleets.map((n) => n ?? 1));
  try {
    let url: string;
    let tokens: string[];
    let reference: BenchServer | undefined;
    if (options.target) {
      url = options.target;
      await probe(url);
      if (options.token) tokens = [options.token];
      else {
        if (largest > 1) console.log(`bench: creating ${largest} devices on ${url}`);
        targetFleet = await createTargetFleet({ url, username: options.username, password: options.password }, templates, largest);
        ({ tokens } = targetFleet);
      }
    } else {
      reference = await startBenchServer('reference', largest);
      servers.push(reference);
      ({ url, tokens } = reference);
    }
    const token = tokens[0];
    const bare = options.baseline ? await startBenchServer('baseline') : undefined;
    if (bare) servers.push(bare);
    // Telemetry is a write: with --baseline it is also measured against a bare route that makes it durable.
    const durable = bare && ops.includes('telemetry') ? await startBenchServer('durable') : undefined;
    if (durable) servers.push(durable);
    for (const op of ops) {
      for (const devices of fleets) {
        const opRuns = (runs.get(devices)![op] = { reference: [] as BenchFigures[], baseline: [] as BenchFigures[], durable: [] as BenchFigures[] });
        const fleet = devices === undefined ? '' : `, ${devices} ${devices === 1 ? 'device' : 'devices'}`;
        for (let round = 1; round <= rounds; round++) {
          const of = rounds > 1 ? ` (round ${round} of ${rounds})` : '';
          console.log(`bench ${op}: ${url} (${options.connections} connections, ${options.duration / 1000}s${fleet})${of}`);
          opRuns.reference.push(await withServerCpu(reference, () => cannon(url, loadFor(op, templates, tokens, devices), options)));
          if (!bare) continue;
          console.log(`bench ${op}: bare Fastify baseline ${bare.url}${fleet}${of}`);
          // The bare route takes any token: its client sends the very requests the reference server gets.
          const bareTokens = devices === undefined ? [bare.token] : tokens;
          opRuns.baseline.push(await withServerCpu(bare, () => cannon(bare.url, loadFor(op, templates, bareTokens, devices), options)));
          if (!durable || op !== 'telemetry') continue;
          console.log(`bench ${op}: bare durable route ${durable.url}${fleet}${of}`);
          opRuns.durable.push(await withServerCpu(durable, () => cannon(durable.url, loadFor(op, templates, bareTokens, devices), options)));
        }
      }
    }
    if (options.simulator !== undefined) {
      const rate = options.simulator === true ? DEFAULT_COST_RATE : options.simulator;
      console.log(`bench simulator cost: autocannon, an evenly paced raw client, then dhi simulate, each in a child process of its own at ${rate} telemetry msg/s for ${options.duration / 1000}s (${options.rounds} alternating rounds, every other one in reverse order); then the mixed scenario and its floor (as many rounds, likewise)`);
      simulatorCost = await measureSimulatorCost(url, templates, token, { rate, durationMs: options.duration, connections: options.connections, rounds: options.rounds, reportDir: join(options.reportDir, 'simulate') });
    }
    if (options.holdPolls > 0) {
      if (!reference) throw new Error('--hold-polls measures the reference server that dhi bench starts; leave out --target');
      console.log(`bench: holding ${options.holdPolls} attribute polls open on ${url}`);
      const held = await holdPolls(url, token, options.holdPolls, reference.memory);
      try {
        console.log(`bench telemetry: ${url} while ${held.figures.open} polls are open`);
        polls = { ...held.figures, telemetry: await withServerCpu(reference, () => cannon(url, requestFor('telemetry', templates, token), options)) };
      } finally {
        held.release();
      }
    }
  } catch (error) {
    const reason = unreachableReason(error);
    if (!reason) throw error;
    console.error(`dhi bench: cannot reach the target ${options.target}: ${reason}`);
    process.exitCode = EXIT.cannotRun;
    return;
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    await targetFleet?.remove().catch((error: Error) => console.error(`dhi bench: could not delete the bench devices: ${error.message}`));
  }
  const figures = fleets.map((devices) => summarise(ops, runs.get(devices)!, options.baseline));
  const report = {
    tool: 'dhi bench',
    startedAt: started.toISOString(),
    target: options.target ?? 'reference server in a child process (fresh SQLite file)',
    node: process.version,
    cpus: cpus().length,
    connections: options.connections,
    pipelining: options.pipelining,
    durationMs: options.duration,
    rounds,
    // Without --devices: one set of figures; with it, one per fleet size.
    ...(options.devices ? { devices: options.devices, fleets: figures.map((f, i) => ({ devices: fleets[i], ...f })) } : figures[0]),
    heldPolls: polls,
    simulatorCost,
  };
  mkdirSync(options.reportDir, { recursive: true });
  const file = join(options.reportDir, `${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  figures.forEach((fleet, i) => printFigures(ops, fleet, rounds, fleets[i]));
  if (polls) {
    console.log(`held polls ${polls.open}: RSS ${megabytes(polls.rssIdleBytes, 0)} idle, ${megabytes(polls.rssHoldingBytes, 0)} holding, ${(polls.bytesPerPoll / 1024).toFixed(1)} KB per poll; telemetry meanwhile ${polls.telemetry.requestsPerSecond} req/s, p99 ${polls.telemetry.latencyMs.p99} ms`);
  }
  if (simulatorCost) {
    const { autocannon: a, pacedFloor: f, simulator: s, mixed: m } = simulatorCost;
    const fixed = (c: CostFigures) => `fixed ${c.fixedCpuMs} ms a run, whole run ${c.wholeRunMicrosPerRequest} µs/request`;
    const rounds = (c: RoundFigures) => (c.roundsMicrosPerRequest.length > 1 ? `rounds ${c.roundsMicrosPerRequest.join(', ')}; ` : '');
    const paired = (ratios: number[]) => (ratios.length > 1 ? ` (median of each round's ratio of its two back-to-back runs: ${ratios.join(', ')})` : '');
    const median = simulatorCost.rounds > 1 ? `median of ${simulatorCost.rounds} alternating rounds, ` : '';
    console.log(`CPU per request on telemetry at ${simulatorCost.rate}/s (${median}marginal, ${SHORT_MS / 1000}s and ${(SHORT_MS + simulatorCost.durationMs) / 1000}s runs): autocannon ${a.cpuMicrosPerRequest} µs (${rounds(a)}${fixed(a)}), paced floor ${f.cpuMicrosPerRequest} µs (${f.devices} devices; ${rounds(f)}${fixed(f)}), dhi simulate ${s.cpuMicrosPerRequest} µs (${rounds(s)}${fixed(s)}); simulate / autocannon ${simulatorCost.ratio} (ratio of the medians), simulate / paced floor ${simulatorCost.floorRatio}${paired(simulatorCost.floorRatioRounds)}`);
    console.log(`CPU per request, mixed scenario (${m.devices} devices, rpc ${m.rpcRate}/s, attributes ${m.attrRate}/s; ${median}after one unmeasured run): ${m.cpuMicrosPerRequest} µs (${rounds(m)}${fixed(m)}); paced floor at its rate (${m.floor.rate} requests/s, ${m.floor.devices} devices) ${m.floor.cpuMicrosPerRequest} µs (${rounds(m.floor)}${fixed(m.floor)}); mixed / floor ${m.floorRatio}${paired(m.floorRatioRounds)}`);
  }
  console.log(`results: ${file}`);
}
