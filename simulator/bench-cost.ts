// `dhi bench --simulator`: what the simulator costs per request, next to autocannon on the same
// telemetry load (the same server, path and arrival rate), and on the mixed scenario. Between the
// two, the paced floor (bench-paced-floor.ts): the least any client spends sending at that rate,
// each request at its own time rather than in autocannon's bursts, over one connection set per
// device as the simulator does. Each side runs in a child process of its own (bench-side.ts), so
// its CPU time is that process's over its run and nothing another side left behind; the server is
// another child and is not counted. CPU time, not throughput: the machine may be shared, and a busy
// neighbour slows both sides without changing the work per request.
//
// Each side runs twice at the same rate, for SHORT_MS and for SHORT_MS + the bench duration: the CPU
// per request is the difference of the two runs' CPU over the difference of their requests (the
// marginal cost). What every run pays once whatever its length (devices coming online, the stop)
// cancels out, for both sides alike; it is reported apart as `fixedCpuMs`, next to the whole long
// run's plain average (`wholeRunMicrosPerRequest`). Both runs follow, in the same child, a first run
// of the bench duration that is not measured: at a few hundred requests a second V8 is still
// optimizing the simulator's paths (polls, RPC, the driver) many seconds into a run, a cost that
// the 2 s short run would not cancel.
import { measureSide, type BenchSide, type RunCost } from './bench-side.js';
import { DEFAULT_MAX_CONNECTIONS_PER_DEVICE, DEFAULT_REQUEST_TIMEOUT_MS, type SimulationConfig } from './simulation.js';
import { fill, type Templates } from './routes.js';
import { applyOverrides, builtinScenario } from './scenario.js';
import { round1 } from './report/format.js';

export interface CostFigures {
  /** Requests of the long run. */
  requests: number;
  /** CPU of the long run. */
  cpuMs: number;
  /** Marginal CPU per request: (long run CPU − short run CPU) / (long run requests − short run requests). */
  cpuMicrosPerRequest: number;
  /** What a run costs whatever its length: the short run's CPU less its requests at the marginal cost. */
  fixedCpuMs: number;
  /** The long run's CPU over its requests, fixed cost included. */
  wholeRunMicrosPerRequest: number;
  short: { durationMs: number; requests: number; cpuMs: number };
}

/** A side measured in several alternating rounds: the figures of its median round, and every round's cost. */
export type RoundFigures = CostFigures & { roundsMicrosPerRequest: number[] };

export interface SimulatorCost {
  /** Telemetry messages per second offered by every side. */
  rate: number;
  durationMs: number;
  /** The telemetry sides run one after the other, this many times; each keeps its median round. */
  rounds: number;
  autocannon: RoundFigures;
  /** An evenly paced raw-socket client: what the load's shape costs, without the simulator. */
  pacedFloor: RoundFigures & { devices: number };
  simulator: RoundFigures & { devices: number };
  /** simulator / autocannon marginal CPU per request on telemetry, of the two median rounds (autocannon bursts: not the goal's reference). */
  ratio: number;
  /** simulator / paced floor: what the simulator adds to the cost of an evenly paced load (goal: at most 1.2). The median of the rounds' own ratios (floorRatioRounds), each of a simulator run and the floor run beside it. */
  floorRatio: number;
  /** Each round's simulator / paced floor, in the order run. */
  floorRatioRounds: number[];
  /** The mixed scenario, alternating with its floor for `rounds` rounds. */
  mixed: RoundFigures & {
    devices: number;
    rpcRate: number;
    attrRate: number;
    /** The paced floor at the mixed run's own request rate (its marginal requests a second, that round's), over as many devices' connections. */
    floor: RoundFigures & { rate: number; devices: number };
    /** mixed / its floor: what the simulator adds to what that rate of evenly paced requests costs on this machine. The median of the rounds' own ratios (floorRatioRounds), as on telemetry. */
    floorRatio: number;
    /** Each round's mixed / its floor, in the order run. */
    floorRatioRounds: number[];
  };
}

/** The short run of each pair; the long one lasts this plus the bench duration. */
export const SHORT_MS = 2000;
const TELEMETRY_BODY = JSON.stringify({ pulseCounter: 123456, leakage: false, batteryLevel: 87.5 });
const TELEMETRY_DEVICES = 100;
const MIXED_DEVICES = 500;
const MIXED_RATE = 50;

export function marginalCost(short: RunCost, long: RunCost, shortMs: number): CostFigures {
  const extra = long.requests - short.requests;
  const perRequest = extra > 0 ? (long.cpuMicros - short.cpuMicros) / extra : 0;
  return {
    requests: long.requests,
    cpuMs: Math.round(long.cpuMicros / 1000),
    cpuMicrosPerRequest: round1(perRequest),
    fixedCpuMs: Math.round((short.cpuMicros - short.requests * perRequest) / 1000),
    wholeRunMicrosPerRequest: long.requests ? round1(long.cpuMicros / long.requests) : 0,
    short: { durationMs: shortMs, requests: short.requests, cpuMs: Math.round(short.cpuMicros / 1000) },
  };
}

/** dhi simulate's side: `devices` created through the control API, the scenario run in this one process (each run sets the duration). */
function simulatorSide(url: string, scenario: SimulationConfig['scenario'], devices: number, reportDir: string): BenchSide {
  const config: SimulationConfig = {
    target: url, controlUrl: url, username: 'tenant@thingsboard.org', password: 'tenant', devices, durationMs: 0, scenario,
    rampPerSecond: null, provision: null, tokensFile: null, workers: 0, seed: 1, keepDevices: false, insecure: false, warmupMs: null,
    maxConnectionsPerDevice: DEFAULT_MAX_CONNECTIONS_PER_DEVICE, requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
  };
  return { kind: 'simulator', config, reportDir };
}

/** The item with the median value: one noisy round does not decide. */
export function medianBy<T>(items: T[], value: (item: T) => number): T {
  return [...items].sort((a, b) => value(a) - value(b))[Math.floor(items.length / 2)];
}

const perRequest = (c: CostFigures) => c.cpuMicrosPerRequest;

/** The round with the median marginal cost, with every round's cost beside it. */
export function medianRound<T extends CostFigures>(rounds: T[]): T & { roundsMicrosPerRequest: number[] } {
  return { ...medianBy(rounds, perRequest), roundsMicrosPerRequest: rounds.map(perRequest) };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const costRatio = (of: CostFigures, to: CostFigures) => (to.cpuMicrosPerRequest ? round2(of.cpuMicrosPerRequest / to.cpuMicrosPerRequest) : 0);

/**
 * `of` over its floor `to`, round by round: each round's ratio of its two runs (run one after the
 * other, the order alternating), and the median of those ratios. The machine drifts between rounds
 * (the same code's runs moved by 10-20 % over minutes) and moves both runs of a round alike, so it
 * cancels in their ratio; a ratio of the two sides' medians could take them from different rounds.
 * Over twelve 3-round telemetry runs, a simulator run over a floor run strayed from its bench
 * run's typical ratio by 0.10 (root mean square of the natural log) when both came from the same
 * round, 0.19 when not; on mixed, whose sides drift less together, 0.16 and 0.17. (With an even
 * number of rounds, the median is the upper of the middle two, as for the median round.)
 */
export function pairedRatio(of: CostFigures[], to: CostFigures[]): { floorRatio: number; floorRatioRounds: number[] } {
  const ratios = of.map((c, i) => (to[i].cpuMicrosPerRequest ? c.cpuMicrosPerRequest / to[i].cpuMicrosPerRequest : 0));
  return { floorRatio: round2(medianBy(ratios, (r) => r)), floorRatioRounds: ratios.map(round2) };
}

/** The sides' indices in the order round `round` runs them: forward in even rounds, reversed in odd ones. */
export function roundOrder(sides: number, round: number): number[] {
  const order = Array.from({ length: sides }, (_, i) => i);
  return round % 2 ? order.reverse() : order;
}

/** The side's short and long runs in a child of its own, after its unmeasured first run. */
async function pair(side: BenchSide, durationMs: number): Promise<CostFigures> {
  const [short, long] = await measureSide(side, durationMs, [SHORT_MS, SHORT_MS + durationMs]);
  return marginalCost(short, long, SHORT_MS);
}

export async function measureSimulatorCost(
  url: string,
  templates: Templates,
  token: string,
  options: { rate: number; durationMs: number; connections: number; rounds: number; reportDir: string },
): Promise<SimulatorCost> {
  const { rate, durationMs, rounds, reportDir } = options;
  const telemetry = applyOverrides(builtinScenario('telemetry'), { rate });
  const path = fill(templates.device.telemetry, { accessToken: token });
  const floorSide = (rate: number, devices: number): BenchSide => ({ kind: 'paced-floor', url, path, body: TELEMETRY_BODY, rate, devices });
  const sides: BenchSide[] = [
    { kind: 'autocannon', url, path, body: TELEMETRY_BODY, rate, connections: options.connections },
    floorSide(rate, TELEMETRY_DEVICES),
    simulatorSide(url, telemetry, TELEMETRY_DEVICES, reportDir),
  ];
  // Alternating rounds: a busy neighbour during one round does not decide a ratio. Every other
  // round runs the sides in reverse order (A B C, C B A, ...), so that a drift within rounds does
  // not always favour the same side.
  const measured: CostFigures[][] = sides.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const i of roundOrder(sides.length, round)) measured[i].push(await pair(sides[i], durationMs));
  }
  const [ac, floor, sim] = measured.map(medianRound);
  // The mixed scenario and the paced floor at its rate, for as many rounds, in reverse order every
  // other round: the floor then paces at the rate of the mixed run of the round before.
  const mixedScenario = applyOverrides(builtinScenario('mixed'), { rpcRate: MIXED_RATE, attrRate: MIXED_RATE });
  const mixedSide = simulatorSide(url, mixedScenario, MIXED_DEVICES, reportDir);
  const mixedRounds: CostFigures[] = [];
  const floorRounds: (CostFigures & { rate: number })[] = [];
  // At a few hundred requests a second nearly every request wakes the process up on its own, and a
  // wake-up costs tens of µs on a VM: the floor at the mixed run's rate says what that alone costs.
  const mixedRate = (mixed: CostFigures) => Math.max(1, Math.round(((mixed.requests - mixed.short.requests) * 1000) / durationMs));
  const floorAt = async (rate: number) => ({ ...(await pair(floorSide(rate, MIXED_DEVICES), durationMs)), rate });
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      mixedRounds.push(await pair(mixedSide, durationMs));
      floorRounds.push(await floorAt(mixedRate(mixedRounds[round])));
    } else {
      floorRounds.push(await floorAt(mixedRate(mixedRounds[round - 1])));
      mixedRounds.push(await pair(mixedSide, durationMs));
    }
  }
  const mixed = medianRound(mixedRounds);
  const mixedFloor = medianRound(floorRounds);
  return {
    rate,
    durationMs,
    rounds,
    autocannon: ac,
    pacedFloor: { ...floor, devices: TELEMETRY_DEVICES },
    simulator: { ...sim, devices: TELEMETRY_DEVICES },
    ratio: costRatio(sim, ac),
    ...pairedRatio(measured[2], measured[1]),
    mixed: {
      ...mixed,
      devices: MIXED_DEVICES,
      rpcRate: MIXED_RATE,
      attrRate: MIXED_RATE,
      floor: { ...mixedFloor, devices: MIXED_DEVICES },
      ...pairedRatio(mixedRounds, floorRounds),
    },
  };
}
