// The engine: brings up the fleet, runs device groups (in-process or in workers) and the driver
// for the requested duration, stops them in order, and returns the measurements. It emits
// events; presenters (progress.ts, the CLI) print them.
import { createControl, type Control } from './control.js';
import { createThroughControl, createThroughProvisioning, deleteFleet, readTokensFile, type FleetMember } from './fleet.js';
import { isIpv4Loopback } from './http.js';
import type { Aggregate, IntervalView, MetricsDelta, PathName, Phase } from './metrics.js';
import { loadTemplates } from './routes.js';
import type { Scenario } from './scenario.js';
import { runFleet } from './run-fleet.js';

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
  /** Milliseconds of warm-up, reported apart from the steady state; null: until every device is online. */
  warmupMs: number | null;
}

export type EngineEvent =
  | { type: 'phase'; phase: 'fleet' | 'running' | 'steady' | 'stopping' | 'cleanup'; message: string }
  | { type: 'fleet-progress'; done: number; total: number }
  | { type: 'tick'; second: number; online: number; devices: number; phase: Phase; paths: Partial<Record<PathName, IntervalView>> }
  | { type: 'warning'; message: string }
  /** A measurement delta as it is folded into the totals (about once a second per process): what an exporter reads. */
  | { type: 'measured'; delta: MetricsDelta };

export interface SimulationResult {
  config: SimulationConfig;
  startedAt: string;
  /** Milliseconds of load, from the start until the last part of the simulator stopped starting requests. */
  runMs: number;
  /** Milliseconds from the start until the steady state began; runMs when it never began. */
  warmupMs: number;
  /** The steady state never began: some devices never came online. */
  steadyReached: boolean;
  /** The user stopped the run early (Ctrl-C). */
  interrupted: boolean;
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

export function pollsPerDevice(s: Scenario): number {
  return (s.polls.attributes ? 1 : 0) + (s.polls.rpc ? 1 : 0);
}

export function shortConnections(devices: number): number {
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
    const run = await runFleet(config, members, templates.device, control, emit, interrupt);
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

