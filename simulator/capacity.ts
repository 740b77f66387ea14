// How a fleet fits on this machine: the connections a device holds, the descriptors a process may
// use (20,000 here), how many processes a fleet needs, and when each process needs a source
// address of its own (ephemeral ports are counted per source and destination address).
import { isIpv4Loopback } from './http.js';
import type { Scenario } from './scenario.js';

/** Descriptors a process may use: under the 20,000 limit, with room for files, pipes and the listener-free rest. */
export const FD_BUDGET = 19_000;
/** The engine's own process also holds the driver's and the control API's connections. */
export const DRIVER_CONNECTIONS = 1000;
const ENGINE_RESERVE = DRIVER_CONNECTIONS + 300;

export function pollsPerDevice(s: Scenario): number {
  return (s.polls.attributes ? 1 : 0) + (s.polls.rpc ? 1 : 0);
}

/** Connections a device holds in the steady state: one per poll, and one for its other requests if it has any. */
export function connectionsPerDevice(s: Scenario): number {
  const others = s.telemetry.model !== 'off' || s.clientRpc !== null || s.polls.rpc || s.firmware !== null;
  return pollsPerDevice(s) + (others ? 1 : 0);
}

/** Connections a group of devices may hold at once: its process's budget. */
export function groupBudget(inEngineProcess: boolean): number {
  return FD_BUDGET - (inEngineProcess ? ENGINE_RESERVE : 0);
}

/** Ephemeral ports one source address offers towards one server address and port (32768-60999, less a margin). */
const PORTS_PER_SOURCE_ADDRESS = 25_000;

/**
 * Source addresses per process: none while the system's choice has ports enough, since an
 * explicit address makes every connect() bind() first, and bind() searches the ports bound to
 * that address: measured here with 8,000 sockets held, 1.5 ms of kernel time per new connection
 * against 0.04 ms without (40x), which a fleet that reconnects (a device interval longer than the
 * server's keep-alive) pays on every request. Beyond that, on an IPv4 loopback target, each
 * process gets its own 127.0.0.x and with it ~28k ports of its own. `connections`: what the
 * processes hold in the steady state, all together.
 */
export function planSourceAddresses(target: string, processes: number, connections: number): string[] {
  if (connections <= PORTS_PER_SOURCE_ADDRESS || !isIpv4Loopback(target)) return [];
  return Array.from({ length: processes }, (_, g) => `127.0.0.${2 + g}`);
}

/** How many processes the devices need so that each holds its devices' steady connections within its budget. */
export function processesNeeded(devices: number, scenario: Scenario, workers: number): number {
  const perDevice = connectionsPerDevice(scenario);
  if (workers === 0 && devices * perDevice <= groupBudget(true)) return 0;
  let processes = 1;
  while (Math.ceil(devices / processes) * perDevice > groupBudget(false)) processes++;
  return processes;
}
