// `dhi bench`'s figures: the median rounds of each side, the ratios of the reference server's to
// the bare routes' (throughput and server CPU per request), and the lines that print them. The runs
// themselves are bench.ts's; the simulator's cost is measured in bench-cost.ts.
import { medianBy, type CostFigures, type RoundFigures, type SimulatorCost } from './bench-cost.js';
import { round3 } from './report/format.js';
import type { TelemetryLogBooks } from '../reference-server/store/types.js';

export type BenchOp = 'telemetry' | 'attributes' | 'longpoll';

export interface BenchFigures {
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /**
   * The server's CPU time (every thread) over the run, per request; when dhi bench started the server.
   * The reference server's includes folding the telemetry the run wrote (bench.ts withServerCpu).
   */
  serverCpuMicrosPerRequest?: number;
  /** The reference server's telemetry log over the run: the rows the run wrote to it, and the folds of the whole log that ran in it or right after it (that CPU is in the run's). */
  telemetryLog?: TelemetryLogBooks;
}

/** Each round's rows and folds of the reference server's telemetry log (BenchFigures.telemetryLog), in the order run. */
export interface TelemetryLogRounds {
  rows: number[];
  folds: number[];
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
  /** Telemetry with --baseline: the bare indexed durable route's figures, and both ratios against it. */
  indexedBaseline?: Record<string, BenchFigures>;
  indexedRatio?: Record<string, number>;
  indexedServerCpu?: Record<string, ServerCpu>;
  roundsRequestsPerSecond?: Record<string, { reference: number[]; baseline: number[]; durable?: number[]; indexed?: number[] }>;
  /** With --devices: the requests each server got from the fleet, unmeasured, before the rounds. */
  warmUpRequests?: Record<string, WarmUp>;
  /** The operations whose rounds wrote to the reference server's telemetry log: each round's rows and folds (BenchFigures.telemetryLog), in the order run. */
  roundsTelemetryLog?: Record<string, TelemetryLogRounds>;
}

/** The bare durable routes telemetry is also measured against (bench-durable.ts): their names, and what each does. */
export const WRITE_SIDES = [
  { side: 'durable', name: 'bare durable route', does: 'group-committed SQLite insert, synchronous=FULL' },
  { side: 'indexed', name: 'bare indexed durable route', does: "each key's value group-committed into a table by device, key and time, synchronous=FULL" },
] as const;

/** The sides a reference server's run is compared with: the bare route, and for telemetry the bare durable routes. */
type Side = 'baseline' | (typeof WRITE_SIDES)[number]['side'];
type WarmUp = { reference?: number } & Partial<Record<Side, number>>;
export type Runs = Record<string, { reference: BenchFigures[]; warmUp: WarmUp } & Record<Side, BenchFigures[]>>;

export function serverCpu(reference: BenchFigures[], baseline: BenchFigures[]): ServerCpu | undefined {
  const cpu = (runs: BenchFigures[]) => runs.map((r) => r.serverCpuMicrosPerRequest).filter((v): v is number => v !== undefined);
  const rounds = { reference: cpu(reference), baseline: cpu(baseline) };
  if (rounds.reference.length === 0 || rounds.baseline.length === 0) return undefined;
  const median = (values: number[]) => medianBy(values, (v) => v);
  const [ref, bare] = [median(rounds.reference), median(rounds.baseline)];
  return { reference: ref, baseline: bare, ratio: round3(bare / Math.max(ref, 0.1)), rounds };
}

/** A baseline's median round, and the throughput and server CPU ratios of the reference server's to it. */
interface Comparison {
  baseline: Record<string, BenchFigures>;
  ratio: Record<string, number>;
  cpu: Record<string, ServerCpu>;
}

function compare(ops: BenchOp[], results: Record<string, BenchFigures>, runs: Runs, side: Side): Comparison {
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
export function summarise(ops: BenchOp[], runs: Runs, withBaseline: boolean): FleetFigures {
  const results = Object.fromEntries(ops.map((op) => [op, medianRun(runs[op].reference)]));
  const warmUps = Object.fromEntries(ops.filter((op) => runs[op].warmUp.reference !== undefined).map((op) => [op, runs[op].warmUp]));
  const warmUpRequests = orNone(warmUps);
  const roundsTelemetryLog = orNone(telemetryLogs(ops, runs));
  if (!withBaseline) return { results, warmUpRequests, roundsTelemetryLog };
  const bare = compare(ops, results, runs, 'baseline');
  const durable = compare(ops, results, runs, 'durable');
  const indexed = compare(ops, results, runs, 'indexed');
  const rps = (figures: BenchFigures[]) => figures.map((r) => r.requestsPerSecond);
  const rounds = Object.fromEntries(ops.map((op) => [op, {
    reference: rps(runs[op].reference),
    baseline: rps(runs[op].baseline),
    ...(runs[op].durable.length > 0 ? { durable: rps(runs[op].durable) } : {}),
    ...(runs[op].indexed.length > 0 ? { indexed: rps(runs[op].indexed) } : {}),
  }]));
  return {
    results,
    baseline: bare.baseline,
    ratio: bare.ratio,
    serverCpu: orNone(bare.cpu),
    durableBaseline: orNone(durable.baseline),
    durableRatio: orNone(durable.ratio),
    durableServerCpu: orNone(durable.cpu),
    indexedBaseline: orNone(indexed.baseline),
    indexedRatio: orNone(indexed.ratio),
    indexedServerCpu: orNone(indexed.cpu),
    roundsRequestsPerSecond: rounds,
    warmUpRequests,
    roundsTelemetryLog,
  };
}

/** Each round's rows and folds of the reference server's telemetry log, for the operations that wrote to it. */
function telemetryLogs(ops: BenchOp[], runs: Runs): Record<string, TelemetryLogRounds> {
  const logs = ops.map((op) => [op, runs[op].reference.map((r) => r.telemetryLog)] as const);
  const wrote = logs.filter(([, rounds]) => rounds.some((log) => log && log.rows > 0));
  return Object.fromEntries(wrote.map(([op, rounds]) => [op, { rows: rounds.map((log) => log?.rows ?? 0), folds: rounds.map((log) => log?.folds ?? 0) }]));
}

/** The server CPU comparison appended to a baseline's line, when both sides' CPU was measured. */
const cpuText = (c: ServerCpu | undefined) => (c ? `; server CPU ${c.reference} vs ${c.baseline} µs/request: ratio ${c.ratio}` : '');

export function printFigures(ops: BenchOp[], figures: FleetFigures, rounds: number, devices: number | undefined): void {
  for (const op of ops) {
    const r = figures.results[op];
    const b = figures.baseline?.[op];
    const non2xx = op === 'longpoll' ? `408 ${r.non2xx} (expected)` : `non-2xx ${r.non2xx}`;
    const fleet = devices === undefined ? '' : `${String(devices).padStart(6)} ${devices === 1 ? 'device ' : 'devices'} `;
    const line = `${op.padEnd(10)} ${fleet}${String(r.requestsPerSecond).padStart(7)} req/s  p50 ${r.latencyMs.p50} ms  p99 ${r.latencyMs.p99} ms  ${non2xx}  errors ${r.errors}`;
    const median = rounds > 1 ? `median of ${rounds} alternating rounds: ` : '';
    const cpuLine = cpuText(figures.serverCpu?.[op]);
    const ownCpu = r.serverCpuMicrosPerRequest === undefined ? '' : `  server CPU ${r.serverCpuMicrosPerRequest} µs/request`;
    console.log(b ? `${line}  | bare Fastify ${b.requestsPerSecond} req/s, ${median}ratio ${figures.ratio?.[op]}${cpuLine}` : line + ownCpu);
    const indent = `${''.padEnd(10)} ${' '.repeat(fleet.length)}`;
    for (const { side, name, does } of WRITE_SIDES) {
      const f = figures[`${side}Baseline`]?.[op];
      if (f) console.log(`${indent}| ${name} (${does}) ${f.requestsPerSecond} req/s, p99 ${f.latencyMs.p99} ms, ${median}ratio ${figures[`${side}Ratio`]?.[op]}${cpuText(figures[`${side}ServerCpu`]?.[op])}`);
    }
    const log = figures.roundsTelemetryLog?.[op];
    if (log) console.log(`${indent}| dhi's server CPU includes folding into its tables the telemetry each round wrote: rows ${log.rows.join(' / ')}, folds of the whole log ${log.folds.join(' / ')} (each round's count includes the one just after it, of the rows it left)`);
  }
}

/**
 * With --devices of two sizes or more, per operation: how far apart the fleet sizes are, as the share
 * the slowest (or dearest) falls short of the fastest (cheapest); beside it that of the bare route,
 * whose fleets all cost the same, so that its spread is the machine's own.
 */
export interface FleetSpread {
  slowest: { devices: number; requestsPerSecond: number };
  fastest: { devices: number; requestsPerSecond: number };
  spread: number;
  /** Server CPU per request (the median rounds'), dearest against cheapest. */
  cpu?: { dearest: { devices: number; micros: number }; cheapest: { devices: number; micros: number }; spread: number };
  baselineSpread?: number;
  /**
   * With --baseline: the same of each size's ratios to the bare Fastify route run right after it in
   * the same round (throughput, and server CPU bare ÷ dhi; each the median of the rounds' ratios), in
   * which the machine's drift over the minutes between the sizes cancels out.
   */
  againstBare?: { throughput: RatioSpread; cpu?: RatioSpread };
}

/** The fleet sizes with the lowest and the highest ratio to the bare route, and how far apart. */
export interface RatioSpread {
  lowest: { devices: number; ratio: number };
  highest: { devices: number; ratio: number };
  spread: number;
}

/**
 * How far `low` falls short of `high`, as a share of it; 0 when `high` is 0 (sizes that ran nothing).
 * Not against a floor: ratios to the bare route fall under 0.1 on a loaded machine, and 0.063 against
 * 0.08 is 21 % apart, where against a floor of 0.1 it read 37 %.
 */
const shortfall = (low: number, high: number) => (high > 0 ? round3(1 - low / high) : 0);

/** The fleet sizes with the least and the most of `value` (of a tie, the earlier size). */
function extremes<T>(fleets: T[], value: (fleet: T) => number): [T, T] {
  const sorted = [...fleets].sort((a, b) => value(a) - value(b));
  return [sorted[0], sorted[sorted.length - 1]];
}

/** Each round's ratio `over` ÷ `under` (paired in run order), their median, and the sizes' spread of it. */
function pairedSpread(fleets: { devices: number; over: number[]; under: number[] }[]): RatioSpread | undefined {
  if (fleets.some(({ over, under }) => over.length === 0 || over.length !== under.length)) return undefined;
  const ratios = fleets.map(({ devices, over, under }) => ({ devices, ratio: round3(medianBy(over.map((v, i) => v / Math.max(under[i], 0.1)), (r) => r)) }));
  const [lowest, highest] = extremes(ratios, (r) => r.ratio);
  return { lowest, highest, spread: shortfall(lowest.ratio, highest.ratio) };
}

export function fleetSpread(ops: BenchOp[], fleets: { devices: number; figures: FleetFigures }[]): Record<string, FleetSpread> | undefined {
  if (fleets.length < 2) return undefined;
  const out: Record<string, FleetSpread> = {};
  for (const op of ops) {
    const rates = fleets.map(({ devices, figures }) => ({ devices, requestsPerSecond: figures.results[op].requestsPerSecond }));
    const [slowest, fastest] = extremes(rates, (r) => r.requestsPerSecond);
    const spread: FleetSpread = { slowest, fastest, spread: shortfall(slowest.requestsPerSecond, fastest.requestsPerSecond) };
    const costs = fleets.flatMap(({ devices, figures }) => {
      const micros = figures.serverCpu?.[op]?.reference ?? figures.results[op].serverCpuMicrosPerRequest;
      return micros === undefined ? [] : [{ devices, micros }];
    });
    if (costs.length === fleets.length) {
      const [cheapest, dearest] = extremes(costs, (c) => c.micros);
      spread.cpu = { dearest, cheapest, spread: shortfall(cheapest.micros, dearest.micros) };
    }
    const bare = fleets.flatMap(({ figures }) => figures.baseline?.[op]?.requestsPerSecond ?? []);
    if (bare.length === fleets.length) spread.baselineSpread = shortfall(Math.min(...bare), Math.max(...bare));
    const throughput = pairedSpread(fleets.map(({ devices, figures }) => ({ devices, over: figures.roundsRequestsPerSecond?.[op]?.reference ?? [], under: figures.roundsRequestsPerSecond?.[op]?.baseline ?? [] })));
    if (throughput) {
      // CPU is read the bare route's way up (bare ÷ dhi), as ServerCpu.ratio is.
      const cpu = pairedSpread(fleets.map(({ devices, figures }) => ({ devices, over: figures.serverCpu?.[op]?.rounds.baseline ?? [], under: figures.serverCpu?.[op]?.rounds.reference ?? [] })));
      spread.againstBare = { throughput, ...(cpu ? { cpu } : {}) };
    }
    out[op] = spread;
  }
  return out;
}

const fleetName = (devices: number) => `${devices} ${devices === 1 ? 'device' : 'devices'}`;
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

export function printFleetSpread(spreads: Record<string, FleetSpread>): void {
  for (const [op, { slowest, fastest, spread, cpu, baselineSpread, againstBare }] of Object.entries(spreads)) {
    const costs = cpu ? `; server CPU a request ${percent(cpu.spread)} apart (${cpu.dearest.micros} µs at ${fleetName(cpu.dearest.devices)}, ${cpu.cheapest.micros} at ${fleetName(cpu.cheapest.devices)})` : '';
    const bare = baselineSpread === undefined ? '' : `; the bare Fastify route's fleets ${percent(baselineSpread)} apart`;
    console.log(`${op.padEnd(10)} fleets: the slowest (${fleetName(slowest.devices)}, ${slowest.requestsPerSecond} req/s) ${percent(spread)} below the fastest (${fleetName(fastest.devices)}, ${fastest.requestsPerSecond} req/s)${costs}${bare}`);
    if (!againstBare) continue;
    const ratios = (what: string, r: RatioSpread) => `${what} ${percent(r.spread)} apart (${r.lowest.ratio} at ${fleetName(r.lowest.devices)}, ${r.highest.ratio} at ${fleetName(r.highest.devices)})`;
    const cpuRatios = againstBare.cpu ? `, ${ratios('server CPU ratios (bare ÷ dhi)', againstBare.cpu)}` : '';
    console.log(`${''.padEnd(10)} fleets against the bare route in the same round (median of the rounds' ratios): ${ratios('throughput ratios', againstBare.throughput)}${cpuRatios}`);
  }
}

/** The run with the median rate: one noisy round does not decide. */
export const medianRun = (runs: BenchFigures[]): BenchFigures => medianBy(runs, (r) => r.requestsPerSecond);

/** The simulator's CPU per request (dhi bench --simulator): telemetry beside autocannon and the paced floor, then mixed beside its floor. */
export function printSimulatorCost(simulatorCost: SimulatorCost): void {
  const { autocannon: a, pacedFloor: f, simulator: s, mixed: m } = simulatorCost;
  const fixed = (c: CostFigures) => `${c.window.requests} requests and ${c.window.majorGcs} major GC(s) in ${c.window.ms / 1000}s, fixed ${c.fixedCpuMs} ms a run, whole run ${c.wholeRunMicrosPerRequest} µs/request`;
  const rounds = (c: RoundFigures) => (c.roundsMicrosPerRequest.length > 1 ? `rounds ${c.roundsMicrosPerRequest.join(', ')}; ` : '');
  const paired = (ratios: number[]) => (ratios.length > 1 ? ` (median of each round's ratio of its two runs side by side: ${ratios.join(', ')})` : '');
  const median = simulatorCost.rounds > 1 ? `median of ${simulatorCost.rounds} rounds, ` : '';
  // A ratio is read with both sides' send lag: both pace with the pacer, and the lags show they did alike.
  const p99 = (c: CostFigures) => (c.sendLagMs ? `${c.sendLagMs.p99} ms` : 'not measured');
  const lags = (floor: CostFigures, sim: CostFigures, path = '') => ` (send lag p99: floor ${p99(floor)}, dhi simulate${path} ${p99(sim)})`;
  const runs = (c: CostFigures) => `after a ${c.warmUp.durationMs / 1000}s warm-up, CPU over ${c.window.durationMs / 1000}s from ${c.window.fromMs / 1000}s into the next run, over the requests that ended in it`;
  console.log(`CPU per request on telemetry at ${simulatorCost.rate}/s (${median}${runs(s)}): autocannon ${a.cpuMicrosPerRequest} µs (${rounds(a)}${fixed(a)}), paced floor ${f.cpuMicrosPerRequest} µs (${f.devices} devices, run at the same time as dhi simulate; ${rounds(f)}${fixed(f)}), dhi simulate ${s.cpuMicrosPerRequest} µs (${rounds(s)}${fixed(s)}); simulate / autocannon ${simulatorCost.ratio} (ratio of the medians), simulate / paced floor ${simulatorCost.floorRatio}${lags(f, s)}${paired(simulatorCost.floorRatioRounds)}`);
  console.log(`CPU per request, mixed scenario (${m.devices} devices, rpc ${m.rpcRate}/s, attributes ${m.attrRate}/s; ${median}${runs(m)}): ${m.cpuMicrosPerRequest} µs (${rounds(m)}${fixed(m)}); paced floor at its rate, at the same time (${m.floor.rate} requests/s, ${m.floor.devices} devices) ${m.floor.cpuMicrosPerRequest} µs (${rounds(m.floor)}${fixed(m.floor)}); mixed / floor ${m.floorRatio}${lags(m.floor, m, "'s telemetry")}${paired(m.floorRatioRounds)}`);
}
