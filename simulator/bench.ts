// `dhi bench`: autocannon against chosen hot paths of a reference server (started in a child
// process, one per --devices fleet size, or at --target), and with --baseline against a bare Fastify route in the same run (and, for
// telemetry, the bare durable routes: bench-durable.ts), alternating for --rounds rounds (median kept); --devices spreads the requests over fleets of
// distinct devices (bench-fleet.ts), each fleet first sent unmeasured to every server, then every fleet measured in each round, one set of figures per
// fleet size (medians and ratios) and how far apart the sizes are (bench-figures.ts);
// --hold-polls measures open long polls. The reference server's CPU of a run includes folding the
// telemetry the run wrote (withServerCpu). Results go to reports/bench/<timestamp>.json. Speed is measured here, never asserted
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
import { measureSimulatorCost, type SimulatorCost } from './bench-cost.js';
import { fleetSpread, printFigures, printFleetSpread, printSimulatorCost, summarise, WRITE_SIDES, type BenchFigures, type BenchOp, type Runs } from './bench-figures.js';
import { startBenchServer, type BenchServer } from './bench-server.js';
import { fill, loadTemplates, type Templates } from './routes.js';
import { holdPolls, type PollFigures } from './bench-polls.js';
import { round1 } from './report/format.js';

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

/** The servers a fleet size is measured on (the bare Fastify route, which keeps nothing, is shared). */
interface FleetServers {
  url: string;
  tokens: string[];
  /** Absent with --target, which dhi bench cannot ask for its CPU. */
  reference?: BenchServer;
  writeSides: ((typeof WRITE_SIDES)[number] & { server: BenchServer })[];
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

/**
 * `run`, with the CPU the server spent on it per request when the server is ours to ask. The
 * reference server folds its telemetry log into the time series in the background once enough rows
 * wait (a fold costs a few µs a row), so whether a fold fell inside a run was luck: it folds every
 * row waiting before the run, unmeasured, and every row the run left after it, counted in (each
 * answered once the fold's WAL checkpoint is over too: bench-server.ts quiet). A run's CPU is then
 * that of its own writes and all of their folds; its throughput stays its own requests over its
 * duration.
 */
async function withServerCpu(server: BenchServer | undefined, run: () => Promise<BenchFigures>): Promise<BenchFigures> {
  if (!server) return run();
  const from = await server.foldTelemetryLog();
  const before = await server.cpuMicros();
  const figures = await run();
  const to = await server.foldTelemetryLog();
  const used = (await server.cpuMicros()) - before;
  const telemetryLog = from && to ? { rows: to.rows - from.rows, folds: to.folds - from.folds } : undefined;
  return { ...figures, serverCpuMicrosPerRequest: figures.total > 0 ? round1(used / figures.total) : 0, ...(telemetryLog ? { telemetryLog } : {}) };
}

export function parseOps(list: string): BenchOp[] {
  const ops = list.split(',').map((s) => s.trim()).filter(Boolean);
  for (const op of ops) if (!(OPS as readonly string[]).includes(op)) throw new Error(`--ops: unknown operation "${op}", expected ${OPS.join(', ')}`);
  return ops as BenchOp[];
}

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
    // A --target holds one fleet, the largest, which every size draws from.
    let target: { url: string; tokens: string[] } | undefined;
    if (options.target) {
      await probe(options.target);
      if (options.token) target = { url: options.target, tokens: [options.token] };
      else {
        if (largest > 1) console.log(`bench: creating ${largest} devices on ${options.target}`);
        targetFleet = await createTargetFleet({ url: options.target, username: options.username, password: options.password }, templates, largest);
        target = { url: options.target, tokens: targetFleet.tokens };
      }
    }
    const bare = options.baseline ? await startBenchServer('baseline') : undefined;
    if (bare) servers.push(bare);
    // Every fleet size gets servers of its own, each started before any is measured, so that no
    // size runs on a table another size filled: one server measured with 1,000 devices after 10,000
    // had written took 48-50 µs a request against 40 before them. Telemetry is a write: with
    // --baseline it is also measured against bare routes that make it durable, keeping each body
    // whole, and each key's value by device, key and time. One after the other, each closed at the
    // end even if the next cannot start.
    const fleetServers: FleetServers[] = [];
    for (const devices of fleets) {
      let at: Omit<FleetServers, 'writeSides'>;
      if (target) at = target;
      else {
        const reference = await startBenchServer('reference', devices ?? 1);
        servers.push(reference);
        at = { url: reference.url, tokens: reference.tokens, reference };
      }
      const writeSides: FleetServers['writeSides'] = [];
      for (const side of bare && ops.includes('telemetry') ? WRITE_SIDES : []) {
        const server = await startBenchServer(side.side);
        servers.push(server);
        writeSides.push({ ...side, server });
      }
      fleetServers.push({ ...at, writeSides });
    }
    for (const op of ops) {
      const sized = fleets.map((devices, i) => {
        const opRuns: Runs[string] = { reference: [], baseline: [], durable: [], indexed: [], warmUp: {} };
        runs.get(devices)![op] = opRuns;
        return { devices, opRuns, at: fleetServers[i], fleet: devices === undefined ? '' : `, ${devices} ${devices === 1 ? 'device' : 'devices'}` };
      });
      for (const { devices, opRuns, at, fleet } of sized) {
        if (devices === undefined) continue;
        // A fleet's devices are new to a server until they have sent: their first requests pay for
        // token lookups, first writes and state, the code those compile and the heap they grow
        // (at 10,000 devices ~8 µs a request of a 3 s run). Every server first gets the fleet's
        // load unmeasured, so that the rounds measure a fleet that is online, as a real one is.
        console.log(`bench ${op}: warming up${fleet} on every server (${options.duration / 1000}s each, not measured)`);
        const warmUp = (url: string) => cannon(url, loadFor(op, templates, at.tokens, devices), options).then((f) => f.total);
        opRuns.warmUp.reference = await warmUp(at.url);
        if (bare) opRuns.warmUp.baseline = await warmUp(bare.url);
        if (op === 'telemetry') for (const { side, server } of at.writeSides) opRuns.warmUp[side] = await warmUp(server.url);
      }
      // Each round measures every fleet size in turn, so that the fleets are compared in the same
      // spells of the machine as the servers are (its speed drifts by 10-25 % over minutes here: a
      // fleet measured a few minutes after another differed from it by as much).
      for (let round = 1; round <= rounds; round++) {
        const of = rounds > 1 ? ` (round ${round} of ${rounds})` : '';
        for (const { devices, opRuns, at, fleet } of sized) {
          console.log(`bench ${op}: ${at.url} (${options.connections} connections, ${options.duration / 1000}s${fleet})${of}`);
          opRuns.reference.push(await withServerCpu(at.reference, () => cannon(at.url, loadFor(op, templates, at.tokens, devices), options)));
          if (!bare) continue;
          console.log(`bench ${op}: bare Fastify baseline ${bare.url}${fleet}${of}`);
          // The bare routes take any token: their client sends the very requests the reference server gets.
          const bareTokens = devices === undefined ? [bare.token] : at.tokens;
          opRuns.baseline.push(await withServerCpu(bare, () => cannon(bare.url, loadFor(op, templates, bareTokens, devices), options)));
          if (op !== 'telemetry') continue;
          for (const { side, name, server } of at.writeSides) {
            console.log(`bench ${op}: ${name} ${server.url}${fleet}${of}`);
            opRuns[side].push(await withServerCpu(server, () => cannon(server.url, loadFor(op, templates, bareTokens, devices), options)));
          }
        }
      }
    }
    // The simulator's cost and the held polls: on the first fleet size's server.
    const { url, tokens, reference } = fleetServers[0];
    const token = tokens[0];
    if (options.simulator !== undefined) {
      const rate = options.simulator === true ? DEFAULT_COST_RATE : options.simulator;
      console.log(`bench simulator cost: ${options.rounds} round(s) of autocannon alone, then dhi simulate and an evenly paced raw client at the same time, each in a child process of its own at ${rate} telemetry msg/s, then the mixed scenario and the paced floor at its rate at the same time (each after a warm-up run, its CPU over ${options.duration / 1000}s of the next run)`);
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
  const spread = options.devices ? fleetSpread(ops, options.devices.map((devices, i) => ({ devices, figures: figures[i] }))) : undefined;
  const report = {
    tool: 'dhi bench',
    startedAt: started.toISOString(),
    target: options.target ?? (options.devices ? 'a reference server per fleet size, each in a child process (fresh SQLite file)' : 'reference server in a child process (fresh SQLite file)'),
    node: process.version,
    cpus: cpus().length,
    connections: options.connections,
    pipelining: options.pipelining,
    durationMs: options.duration,
    rounds,
    // Without --devices: one set of figures; with it, one per fleet size.
    ...(options.devices ? { devices: options.devices, fleets: figures.map((f, i) => ({ devices: fleets[i], ...f })), fleetSpread: spread } : figures[0]),
    heldPolls: polls,
    simulatorCost,
  };
  mkdirSync(options.reportDir, { recursive: true });
  const file = join(options.reportDir, `${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  figures.forEach((fleet, i) => printFigures(ops, fleet, rounds, fleets[i]));
  if (spread) printFleetSpread(spread);
  if (polls) {
    console.log(`held polls ${polls.open}: RSS ${megabytes(polls.rssIdleBytes, 0)} idle, ${megabytes(polls.rssHoldingBytes, 0)} holding, ${(polls.bytesPerPoll / 1024).toFixed(1)} KB per poll; telemetry meanwhile ${polls.telemetry.requestsPerSecond} req/s, p99 ${polls.telemetry.latencyMs.p99} ms`);
  }
  if (simulatorCost) printSimulatorCost(simulatorCost);
  console.log(`results: ${file}`);
}
