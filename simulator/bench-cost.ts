// `dhi bench --simulator`: what the simulator costs per request, next to autocannon on the same
// telemetry load (the same server, path and arrival rate), and on the mixed scenario. Between the
// two, the paced floor (bench-paced-floor.ts): the least any client spends sending at that rate,
// each request at its own time rather than in autocannon's bursts, over one connection set per
// device as the simulator does. Each side runs in a child process of its own (bench-side.ts), so
// its CPU time is that process's over its run and nothing another side left behind; the server is
// another child and is not counted. CPU time, not throughput: the machine may be shared, and a busy
// neighbour slows both sides without changing the work per request.
//
// dhi simulate and its paced floor run AT THE SAME TIME, each in its own child against the one
// server, run for run: what a request costs here depends mostly on the state of the machine (a
// wake-up from idle costs tens of µs on a VM; the floor alone moved 52-108 µs a request between
// runs of minutes apart), and two runs side by side see the same state. Each round's ratio of the
// two is the figure; autocannon runs alone before them.
//
// Each side runs twice in its child: once unmeasured (`warmUp`: at a few hundred requests a second
// V8 is still optimizing the simulator's paths many seconds into a run), then once more, its CPU read
// over a window of the bench duration that begins once every device is online and its connections
// are open (`window.fromMs` into the load) and ends before the stop, over the requests that ended in
// that window, counted (`window.requests`: read with the CPU at each edge, so a rate that is not
// steady changes nothing). So what a run pays once (devices coming online, connections, the stop)
// stays out of the figure; it is reported apart as `fixedCpuMs`, next to the whole run's plain
// average (`wholeRunMicrosPerRequest`).
import type { SendLagFigures } from './bench-paced-floor.js';
import { startSide, type BenchSide, type RunCost, type SideChild, type Window } from './bench-side.js';
import { DEFAULT_MAX_CONNECTIONS_PER_DEVICE, DEFAULT_REQUEST_TIMEOUT_MS, type SimulationConfig } from './simulation.js';
import { fill, type Templates } from './routes.js';
import { applyOverrides, builtinScenario } from './scenario.js';
import { round1 } from './report/format.js';

export interface CostFigures {
  /** Requests in the window: those that ended between its two readings, counted (= window.requests). */
  requests: number;
  /** CPU over the window. */
  cpuMs: number;
  /** CPU per request over the window. */
  cpuMicrosPerRequest: number;
  /** What the measured run paid beyond its requests at the window's cost: devices coming online, connections, the stop. */
  fixedCpuMs: number;
  /** The measured run's CPU over its requests, fixed cost included. */
  wholeRunMicrosPerRequest: number;
  /**
   * The measured window: asked from `fromMs` after the load began, for the bench duration; as read,
   * `ms` between its two readings (dhi simulate's fall on its once-a-second drains, at or past the
   * edges asked), `requests` that ended between them, the `majorGcs` (mark-compacts) in it.
   */
  window: { fromMs: number; durationMs: number; ms: number; requests: number; majorGcs: number };
  /** The unmeasured first run, in the same child before the measured one. */
  warmUp: { durationMs: number; requests: number };
  /**
   * A paced side's send lag in the measured run (the paced floor's and dhi simulate's, not
   * autocannon's): how precisely it paced for its cost. The floor's over the sends meant for the
   * window; dhi simulate's over its telemetry path's steady state (its summary's `lagMs`).
   */
  sendLagMs?: SendLagFigures;
}

/** A side measured in several alternating rounds: the figures of its median round, and every round's cost. */
export type RoundFigures = CostFigures & { roundsMicrosPerRequest: number[]; roundsMajorGcs: number[] };

export interface SimulatorCost {
  /** Telemetry messages per second offered by every side. */
  rate: number;
  durationMs: number;
  /** Rounds of autocannon, then the paced floor and dhi simulate together; each side keeps its median round. */
  rounds: number;
  autocannon: RoundFigures;
  /** An evenly paced raw-socket client: what the load's shape costs, without the simulator. */
  pacedFloor: RoundFigures & { devices: number };
  simulator: RoundFigures & { devices: number };
  /** simulator / autocannon CPU per request on telemetry, of the two median rounds (autocannon bursts: not the goal's reference). */
  ratio: number;
  /** simulator / paced floor: what the simulator adds to the cost of an evenly paced load (goal: at most 1.2). The median of the rounds' own ratios (floorRatioRounds), each of a simulator run and the floor run at the same time. */
  floorRatio: number;
  /** Each round's simulator / paced floor, in the order run. */
  floorRatioRounds: number[];
  /** The mixed scenario, run at the same time as its floor, for `rounds` rounds. */
  mixed: RoundFigures & {
    devices: number;
    rpcRate: number;
    attrRate: number;
    /** The paced floor at the mixed side's own request rate (its warm-up's requests a second, that round's), over as many devices' connections. */
    floor: RoundFigures & { rate: number; devices: number };
    /** mixed / its floor: what the simulator adds to what that rate of evenly paced requests costs on this machine. The median of the rounds' own ratios (floorRatioRounds), as on telemetry. */
    floorRatio: number;
    /** Each round's mixed / its floor, in the order run. */
    floorRatioRounds: number[];
  };
}

/** A side's runs: the unmeasured warm-up, then the measured run, its window of the bench duration from `settleMs` into its load. */
export interface Timing {
  warmUpMs: number;
  settleMs: number;
  durationMs: number;
}

/** The telemetry sides' settle: at 1,000 requests a second every device's connection is open within it. */
const TELEMETRY_SETTLE_MS = 2000;

/**
 * The telemetry sides warm up for the bench duration. The mixed scenario and its floor warm up for 3x
 * the duration (30 s at the default 10 s): its per-request functions run ~50 times a second and
 * reach TurboFan only ~25 s into a child (measured: compiles and deopts 12-32 s in). Their window
 * begins 1.2x the duration into the measured run (12 s): a device's first telemetry comes at a
 * random point of its 10 s period and opens its connection then. A --duration under 10 s (the
 * tests') shortens both in proportion.
 */
export function timings(durationMs: number): { telemetry: Timing; mixed: Timing } {
  return {
    telemetry: { warmUpMs: durationMs, settleMs: TELEMETRY_SETTLE_MS, durationMs },
    mixed: { warmUpMs: 3 * durationMs, settleMs: Math.round(1.2 * durationMs), durationMs },
  };
}

const TELEMETRY_BODY = JSON.stringify({ pulseCounter: 123456, leakage: false, batteryLevel: 87.5 });
const TELEMETRY_DEVICES = 100;
const MIXED_DEVICES = 500;
const MIXED_RATE = 50;

/** A side's figures from its warm-up and its measured run (whose CPU and requests were also read over the window of `timing`). */
export function windowCost(warmUp: RunCost, run: RunCost, timing: Timing): CostFigures {
  const { requests, cpuMicros, ms, majorGcs } = run.window;
  const perRequest = requests > 0 ? cpuMicros / requests : 0;
  return {
    requests,
    cpuMs: Math.round(cpuMicros / 1000),
    cpuMicrosPerRequest: round1(perRequest),
    fixedCpuMs: Math.round((run.cpuMicros - run.requests * perRequest) / 1000),
    wholeRunMicrosPerRequest: run.requests ? round1(run.cpuMicros / run.requests) : 0,
    window: { fromMs: timing.settleMs, durationMs: timing.durationMs, ms, requests, majorGcs },
    warmUp: { durationMs: timing.warmUpMs, requests: warmUp.requests },
    ...(run.sendLagMs ? { sendLagMs: run.sendLagMs } : {}),
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

/** The round with the median cost per request, with every round's cost and major GCs in its window beside it. */
export function medianRound<T extends CostFigures>(rounds: T[]): T & { roundsMicrosPerRequest: number[]; roundsMajorGcs: number[] } {
  return { ...medianBy(rounds, perRequest), roundsMicrosPerRequest: rounds.map(perRequest), roundsMajorGcs: rounds.map((c) => c.window.majorGcs) };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const costRatio = (of: CostFigures, to: CostFigures) => (to.cpuMicrosPerRequest ? round2(of.cpuMicrosPerRequest / to.cpuMicrosPerRequest) : 0);

/**
 * `of` over its floor `to`, round by round: each round's ratio of its two sides' runs (run at the
 * same time), and the median of those ratios. The machine drifts between rounds (the same code's
 * runs moved by 10-20 % over minutes) and moves both runs of a round alike, so it cancels in their
 * ratio; a ratio of the two sides' medians could take them from different rounds. (With an even
 * number of rounds, the median is the upper of the middle two, as for the median round.)
 */
export function pairedRatio(of: CostFigures[], to: CostFigures[]): { floorRatio: number; floorRatioRounds: number[] } {
  const ratios = of.map((c, i) => (to[i].cpuMicrosPerRequest ? c.cpuMicrosPerRequest / to[i].cpuMicrosPerRequest : 0));
  return { floorRatio: round2(medianBy(ratios, (r) => r)), floorRatioRounds: ratios.map(round2) };
}

/** One run of every child at the same time: a child starts its run once the previous one's load began (a simulator's after its fleet is up: list it first). */
async function together(children: SideChild[], ms: number, options: { rates?: (number | undefined)[]; window?: Window } = {}): Promise<RunCost[]> {
  const costs: Promise<RunCost>[] = [];
  for (const [i, child] of children.entries()) {
    const { started, cost } = child.run(ms, { rate: options.rates?.[i], window: options.window });
    // Handled below by Promise.all, unless a later side's start fails first.
    cost.catch(() => {});
    costs.push(cost);
    await started;
  }
  return Promise.all(costs);
}

/** The measured run goes on this long after its window, so that the stop stays out of it. */
const WINDOW_END_MS = 1000;

/**
 * One round of `sides`, each in a child of its own and all at the same time: the warm-up, then the
 * measured run. `ratesAfterWarmUp` sets a paced side's rate for the measured run from the warm-ups
 * (the mixed floor paces at the mixed side's rate).
 */
async function round(sides: BenchSide[], timing: Timing, ratesAfterWarmUp?: (warmUps: RunCost[]) => (number | undefined)[]): Promise<CostFigures[]> {
  const children: SideChild[] = [];
  try {
    for (const side of sides) children.push(await startSide(side));
    const warmUps = await together(children, timing.warmUpMs);
    const window = { fromMs: timing.settleMs, ms: timing.durationMs };
    const runs = await together(children, timing.settleMs + timing.durationMs + WINDOW_END_MS, { rates: ratesAfterWarmUp?.(warmUps), window });
    return sides.map((_, i) => windowCost(warmUps[i], runs[i], timing));
  } finally {
    for (const child of children) child.close();
  }
}

export async function measureSimulatorCost(
  url: string,
  templates: Templates,
  token: string,
  options: { rate: number; durationMs: number; connections: number; rounds: number; reportDir: string },
): Promise<SimulatorCost> {
  const { rate, durationMs, rounds, reportDir } = options;
  const timing = timings(durationMs);
  const telemetry = applyOverrides(builtinScenario('telemetry'), { rate });
  const path = fill(templates.device.telemetry, { accessToken: token });
  const floorSide = (devices: number): BenchSide => ({ kind: 'paced-floor', url, path, body: TELEMETRY_BODY, rate, devices });
  const autocannonSide: BenchSide = { kind: 'autocannon', url, path, body: TELEMETRY_BODY, rate, connections: options.connections };
  const simulator = simulatorSide(url, telemetry, TELEMETRY_DEVICES, reportDir);
  const mixedScenario = applyOverrides(builtinScenario('mixed'), { rpcRate: MIXED_RATE, attrRate: MIXED_RATE });
  const mixedSide = simulatorSide(url, mixedScenario, MIXED_DEVICES, reportDir);
  // At a few hundred requests a second nearly every request wakes the process up on its own, and a
  // wake-up costs tens of µs on a VM: the floor at the mixed side's rate says what that alone costs.
  // It warms up at the telemetry rate (the same code), then paces at the rate the mixed side had
  // over its warm-up (its devices' first sends fall at random points of their periods, so the rate
  // holds from the start; measured: 307 a second over a 30 s warm-up, 308 over later runs).
  const mixedRate = (warmUp: { requests: number }) => Math.max(1, Math.round((warmUp.requests * 1000) / timing.mixed.warmUpMs));
  const [ac, floor, sim, mixed]: CostFigures[][] = [[], [], [], []];
  const mixedFloor: (CostFigures & { rate: number })[] = [];
  // Rounds: a busy neighbour during one round does not decide.
  for (let r = 0; r < rounds; r++) {
    ac.push(...(await round([autocannonSide], timing.telemetry)));
    const [s, f] = await round([simulator, floorSide(TELEMETRY_DEVICES)], timing.telemetry);
    sim.push(s);
    floor.push(f);
    const [m, mf] = await round([mixedSide, floorSide(MIXED_DEVICES)], timing.mixed, ([warmUp]) => [undefined, mixedRate(warmUp)]);
    mixed.push(m);
    mixedFloor.push({ ...mf, rate: mixedRate(m.warmUp) });
  }
  return {
    rate,
    durationMs,
    rounds,
    autocannon: medianRound(ac),
    pacedFloor: { ...medianRound(floor), devices: TELEMETRY_DEVICES },
    simulator: { ...medianRound(sim), devices: TELEMETRY_DEVICES },
    ratio: costRatio(medianRound(sim), medianRound(ac)),
    ...pairedRatio(sim, floor),
    mixed: {
      ...medianRound(mixed),
      devices: MIXED_DEVICES,
      rpcRate: MIXED_RATE,
      attrRate: MIXED_RATE,
      floor: { ...medianRound(mixedFloor), devices: MIXED_DEVICES },
      ...pairedRatio(mixed, mixedFloor),
    },
  };
}
