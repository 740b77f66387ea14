// The engine: brings up the fleet, runs device groups (in-process or in workers) and the driver
// for the requested duration, stops them in order, and returns the measurements. It emits
// events; presenters (progress.ts, the CLI) print them.
import { createControl, type Control } from './control.js';
import { startDriver } from './driver.js';
import { createThroughControl, createThroughProvisioning, deleteFleet, readTokensFile, type FleetMember } from './fleet.js';
import { startGroup, type GroupConfig } from './group.js';
import { isIpv4Loopback } from './http.js';
import { createAggregate, createRecorder, type Aggregate, type IntervalView, type MetricsDelta, type PathName } from './metrics.js';
import { loadTemplates } from './routes.js';
import type { Scenario } from './scenario.js';
import { spawnWorker, type WorkerHandle } from './worker.js';

export interface SimulationConfig {
  target: string;
  /** Control API base URL (defaults to the target). */
  controlUrl: string;
  username: string;
  password: string;
  devices: number;
  durationMs: number;
  scenario: Scenario;
  rampPerSecond: number | null;
  provision: { key: string; secret: string } | null;
  tokensFile: string | null;
  /** 0: devices run in this process. */
  workers: number;
  seed: number;
  keepDevices: boolean;
  /** HTTPS without certificate checks. */
  insecure: boolean;
}

export type EngineEvent =
  | { type: 'phase'; phase: 'fleet' | 'running' | 'stopping' | 'cleanup'; message: string }
  | { type: 'fleet-progress'; done: number; total: number }
  | { type: 'tick'; second: number; online: number; paths: Partial<Record<PathName, IntervalView>> }
  | { type: 'warning'; message: string };

export interface SimulationResult {
  config: SimulationConfig;
  startedAt: string;
  /** Milliseconds of load, from the start until the stop began. */
  runMs: number;
  aggregate: Aggregate;
  fleet: { source: 'tokens' | 'provisioning' | 'control'; members: number; addressable: number };
  simulator: { processes: number; cpuMicros: number; maxRssBytes: number; sourceAddresses: string[] };
  /** A token of the fleet that is left on the server (keepDevices), for demos. */
  sampleToken?: string;
}

export class SimulationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimulationError';
  }
}

const FD_BUDGET = 19_000; // stay under the 20000-descriptor limit per process
const MAX_IN_FLIGHT = 5000;

function pollsPerDevice(s: Scenario): number {
  return (s.polls.attributes ? 1 : 0) + (s.polls.rpc ? 1 : 0);
}

function shortConnections(devices: number): number {
  return Math.min(128, Math.max(8, Math.ceil(devices / 16)));
}

/** Ephemeral ports one source address offers towards one server address and port (32768-60999, less a margin). */
const PORTS_PER_SOURCE_ADDRESS = 25_000;

/**
 * Source addresses per process: none while the system's choice has ports enough, since an
 * explicit address costs a port search in bind() for every connection; beyond that, on an IPv4
 * loopback target, each process gets its own 127.0.0.x and with it ~28k ports of its own.
 */
export function planSourceAddresses(target: string, processes: number, connections: number): string[] {
  if (connections <= PORTS_PER_SOURCE_ADDRESS || !isIpv4Loopback(target)) return [];
  return Array.from({ length: processes }, (_, g) => `127.0.0.${2 + g}`);
}

/** How many processes the devices need so that each stays under the descriptor budget. */
export function processesNeeded(devices: number, scenario: Scenario): number {
  const perDevice = pollsPerDevice(scenario);
  let processes = 1;
  while (Math.ceil(devices / processes) * perDevice + shortConnections(devices / processes) + 500 > FD_BUDGET) processes++;
  return processes;
}

/** `interrupt` ends the run early (Ctrl-C): calls in flight finish, reports and cleanup still happen. */
export async function runSimulation(config: SimulationConfig, emit: (event: EngineEvent) => void = () => {}, interrupt?: AbortSignal): Promise<SimulationResult> {
  const { scenario } = config;
  const groups = Math.max(1, config.workers);
  if (processesNeeded(config.devices, scenario) > groups) {
    throw new SimulationError(
      `${config.devices} devices with ${pollsPerDevice(scenario)} poll(s) each need more than ${FD_BUDGET} descriptors in one process: use --workers ${processesNeeded(config.devices, scenario)} or more`,
    );
  }
  const templates = await loadTemplates();
  // The control API creates the fleet (unless it comes from tokens or provisioning) and drives it.
  // A provisioned fleet uses it when it can: to address the devices and delete them afterwards.
  const needsControl = (!config.tokensFile && !config.provision) || scenario.driver.rpcRate > 0 || scenario.driver.attrRate > 0;
  let control: Control | undefined;
  if (needsControl || config.provision) {
    control = createControl({
      url: config.controlUrl,
      username: config.username,
      password: config.password,
      templates: templates.control,
      connections: 256,
      requestTimeoutMs: Math.max(30_000, scenario.driver.rpcTimeoutMs + 15_000),
      insecure: config.insecure,
    });
    try {
      await control.login();
    } catch (error) {
      await control.close();
      control = undefined;
      const message = `cannot use the control API at ${config.controlUrl}: ${(error as Error).message}`;
      if (needsControl) throw new SimulationError(message);
      emit({ type: 'warning', message });
    }
  }
  const runId = `${Date.now().toString(36)}${(config.seed % 1296).toString(36).padStart(2, '0')}`;
  let members: FleetMember[] = [];
  let source: SimulationResult['fleet']['source'];
  const created: FleetMember[] = [];
  const onCreated = (member: FleetMember) => {
    created.push(member);
    emit({ type: 'fleet-progress', done: created.length, total: config.devices });
  };
  try {
    emit({ type: 'phase', phase: 'fleet', message: `bringing up ${config.devices} devices` });
    if (config.tokensFile) {
      source = 'tokens';
      members = readTokensFile(config.tokensFile, config.devices);
    } else if (config.provision) {
      source = 'provisioning';
      const provision = { url: config.target, template: templates.device.provision, insecure: config.insecure, ...config.provision };
      members = await createThroughProvisioning(provision, runId, config.devices, control, onCreated);
    } else {
      source = 'control';
      members = await createThroughControl(control as Control, runId, config.devices, onCreated);
    }
    const deviceIds = members.flatMap((m) => (m.id ? [m.id] : []));
    if ((scenario.driver.rpcRate > 0 || scenario.driver.attrRate > 0) && deviceIds.length < members.length) {
      emit({ type: 'warning', message: `${members.length - deviceIds.length} devices have no control id: the driver addresses only ${deviceIds.length}` });
    }
    const run = await runFleet(config, members, deviceIds, templates.device, control, emit, interrupt);
    const fleet = { source, members: members.length, addressable: deviceIds.length };
    return { ...run, fleet, sampleToken: config.keepDevices ? members[0]?.token : undefined };
  } finally {
    if (!control && created.length && !config.keepDevices) {
      emit({ type: 'warning', message: `the ${created.length} provisioned devices stay on the server (deleting them needs the control API)` });
    }
    if (control && created.length && !config.keepDevices) {
      emit({ type: 'phase', phase: 'cleanup', message: `deleting the ${created.length} devices of this run` });
      await deleteFleet(control, created).catch((error: Error) => emit({ type: 'warning', message: `cleanup: ${error.message}` }));
    }
    await control?.close();
  }
}

async function runFleet(
  config: SimulationConfig,
  members: FleetMember[],
  deviceIds: string[],
  templates: GroupConfig['templates'],
  control: Control | undefined,
  emit: (event: EngineEvent) => void,
  interrupt: AbortSignal | undefined,
): Promise<Omit<SimulationResult, 'fleet'>> {
  const { scenario } = config;
  const groups = Math.max(1, config.workers);
  const totalConnections = members.length * pollsPerDevice(scenario) + groups * shortConnections(members.length / groups);
  const sourceAddresses = planSourceAddresses(config.target, groups, totalConnections);
  const groupConfigs: GroupConfig[] = [];
  for (let g = 0; g < groups; g++) {
    const devices = members.filter((m) => m.index % groups === g);
    const localAddresses = sourceAddresses.length ? [sourceAddresses[g]] : [];
    groupConfigs.push({
      templates,
      scenario,
      devices,
      seed: config.seed,
      rampPerSecond: config.rampPerSecond,
      telemetryRate: scenario.telemetry.model === 'open' ? (scenario.telemetry.rate * devices.length) / members.length : 0,
      maxInFlight: MAX_IN_FLIGHT,
      target: {
        url: config.target,
        connections: shortConnections(devices.length),
        pollConnections: devices.length * pollsPerDevice(scenario),
        localAddresses,
        pollTimeoutMs: scenario.polls.timeoutMs,
        requestTimeoutMs: 60_000,
        insecure: config.insecure,
      },
    });
  }

  const aggregate = createAggregate();
  const workerRss = new Map<number, number>();
  let maxRss = 0;
  let t0 = performance.now();
  const second = () => Math.max(0, Math.floor((performance.now() - t0) / 1000));
  const absorb = (delta: MetricsDelta) => aggregate.absorb(delta, second());
  const local = createRecorder();
  const driverRecorder = createRecorder();
  let failure: string | undefined;
  const workers: WorkerHandle[] = groupConfigs.slice(0, config.workers).map((gc, g) =>
    spawnWorker(
      gc,
      (delta, rss) => {
        absorb(delta);
        workerRss.set(g, rss);
      },
      (message) => (failure ??= message),
    ),
  );
  let tick: NodeJS.Timeout | undefined;
  try {
    // The clock starts once every worker has loaded, so a run's seconds are all load.
    await Promise.all(workers.map((w) => w.ready));
    if (failure) throw new SimulationError(`a simulator worker failed to start: ${failure}`);
    emit({ type: 'phase', phase: 'running', message: `${members.length} devices, scenario ${scenario.name}, ${config.durationMs / 1000}s` });
    const startedAt = new Date();
    t0 = performance.now();
    const cpuStart = process.cpuUsage();
    const inProcess = config.workers === 0 ? startGroup(groupConfigs[0], local) : undefined;
    const driver = control ? startDriver(control, { scenario, deviceIds, rampPerSecond: config.rampPerSecond, maxInFlight: MAX_IN_FLIGHT }, driverRecorder) : undefined;

    const sampleRss = () => {
      let rss = process.memoryUsage.rss();
      for (const r of workerRss.values()) rss += r;
      maxRss = Math.max(maxRss, rss);
    };
    tick = setInterval(() => {
      absorb(local.drain());
      absorb(driverRecorder.drain());
      sampleRss();
      const now = second();
      emit({ type: 'tick', second: now, online: aggregate.counters.devicesOnline ?? 0, paths: aggregate.interval(now) });
    }, 1000);

    // Run for the duration, or until a worker fails or the user interrupts.
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(end);
        clearInterval(watch);
        resolve();
      };
      const end = setTimeout(done, config.durationMs);
      const watch = setInterval(() => (failure || interrupt?.aborted) && done(), 100);
    });
    // Rates are per second of load: the wait for the last answers does not count.
    const runMs = performance.now() - t0;
    emit({ type: 'phase', phase: 'stopping', message: 'waiting for calls in flight' });
    // The driver first: its RPCs need the devices' polls to come back.
    await driver?.stop();
    await inProcess?.stop();
    const stopped = await Promise.allSettled(workers.map((w) => w.stop()));
    if (failure) throw new SimulationError(`a simulator worker failed: ${failure}`);
    const workerCpu = stopped.reduce((sum, r) => sum + (r.status === 'fulfilled' ? r.value.cpuMicros : 0), 0);
    absorb(local.drain());
    absorb(driverRecorder.drain());
    sampleRss();
    const cpu = process.cpuUsage(cpuStart);
    return {
      config,
      startedAt: startedAt.toISOString(),
      runMs,
      aggregate,
      simulator: { processes: 1 + workers.length, cpuMicros: cpu.user + cpu.system + workerCpu, maxRssBytes: maxRss, sourceAddresses },
    };
  } finally {
    clearInterval(tick);
    for (const w of workers) w.kill();
  }
}
