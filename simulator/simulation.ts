// What a simulation is given and what it gives back, shared by the engine, the fleet runner, the
// presenters and the calibration: the run's configuration (validated at the edge from the CLI's
// options), the events the engine emits, and its result.
import type { Aggregate, IntervalView } from './aggregate.js';
import type { MetricsDelta, PathName, Phase } from './metrics.js';
import type { Scenario } from './scenario.js';

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
  /** Connections one device may open at once; beyond them its requests wait (reported as queued). */
  maxConnectionsPerDevice: number;
  /** How long a request may stay open (a long poll: its own timeout plus this); the run ends at most this long after its duration. */
  requestTimeoutMs: number;
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
  /** Milliseconds of load, from the start until the simulator stopped starting requests. */
  runMs: number;
  /** Milliseconds from then until every request had ended (answered, timed out, or cut as `unfinished`). */
  stopMs: number;
  /** Milliseconds from the start until the steady state began; runMs when it never began. */
  warmupMs: number;
  /** The steady state never began: some devices never came online. */
  steadyReached: boolean;
  /** The user stopped the run early (Ctrl-C). */
  interrupted: boolean;
  aggregate: Aggregate;
  fleet: { source: 'tokens' | 'provisioning' | 'control'; members: number; addressable: number };
  /** Connections of the devices: the most open at once (summed over processes), and opened in all. */
  simulator: { processes: number; cpuMicros: number; maxRssBytes: number; sourceAddresses: string[]; peakConnections: number; connectionsOpened: number };
  /** A token of the fleet that is left on the server (keepDevices), for demos. */
  sampleToken?: string;
}

export class SimulationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimulationError';
  }
}

/**
 * Defaults of --max-connections-per-device and --request-timeout. 16 connections keep a device's
 * requests on the wire through a stall of 8 s at 2 requests/s per device (a fleet of 100 at 200/s),
 * nearly the whole request timeout; 10 s ends a request nobody answers well before a run of a minute does.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_DEVICE = 16;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
