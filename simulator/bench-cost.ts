// `dhi bench --simulator`: what the simulator costs per request, next to autocannon on the same
// telemetry load (the same server, path and arrival rate), and on the mixed scenario. Each side
// runs in this process, one after the other, so its CPU time is process.cpuUsage() over its run;
// the server is a child process and is not counted. CPU time, not throughput: the machine may be
// shared, and a busy neighbour slows both sides without changing the work per request.
import autocannon from 'autocannon';
import { simulate } from './cli.js';
import type { SimulationConfig } from './engine.js';
import { fill, type Templates } from './routes.js';
import { applyOverrides, builtinScenario } from './scenario.js';

export interface CostFigures {
  requests: number;
  cpuMs: number;
  cpuMicrosPerRequest: number;
}

export interface SimulatorCost {
  /** Telemetry messages per second offered by both sides. */
  rate: number;
  durationMs: number;
  autocannon: CostFigures;
  simulator: CostFigures & { devices: number };
  /** simulator / autocannon CPU per request on telemetry (goal: at most 1.5). */
  ratio: number;
  mixed: CostFigures & { devices: number; rpcRate: number; attrRate: number };
}

const TELEMETRY_BODY = JSON.stringify({ pulseCounter: 123456, leakage: false, batteryLevel: 87.5 });
const TELEMETRY_DEVICES = 100;
const MIXED_DEVICES = 500;
const MIXED_RATE = 50;

const figures = (requests: number, cpuMicros: number): CostFigures => ({
  requests,
  cpuMs: Math.round(cpuMicros / 1000),
  cpuMicrosPerRequest: requests ? Math.round((cpuMicros / requests) * 10) / 10 : 0,
});

async function autocannonCost(url: string, t: Templates, token: string, rate: number, durationMs: number, connections: number): Promise<CostFigures> {
  const start = process.cpuUsage();
  const result = await autocannon({
    url: url + fill(t.device.telemetry, { accessToken: token }),
    method: 'POST',
    body: TELEMETRY_BODY,
    headers: { 'content-type': 'application/json' },
    connections,
    overallRate: rate,
    duration: durationMs / 1000,
  });
  const cpu = process.cpuUsage(start);
  return figures(result.requests.total, cpu.user + cpu.system);
}

function simulation(url: string, scenario: SimulationConfig['scenario'], devices: number, durationMs: number): SimulationConfig {
  return {
    target: url, controlUrl: url, username: 'tenant@thingsboard.org', password: 'tenant', devices, durationMs, scenario,
    rampPerSecond: null, provision: null, tokensFile: null, workers: 0, seed: 1, keepDevices: false, insecure: false, warmupMs: null,
  };
}

export async function measureSimulatorCost(
  url: string,
  templates: Templates,
  token: string,
  options: { rate: number; durationMs: number; connections: number; reportDir: string },
): Promise<SimulatorCost> {
  const { rate, durationMs } = options;
  const ac = await autocannonCost(url, templates, token, rate, durationMs, options.connections);
  const telemetry = applyOverrides(builtinScenario('telemetry'), { rate });
  const sim = (await simulate(simulation(url, telemetry, TELEMETRY_DEVICES, durationMs), [], options.reportDir)).summary.simulator;
  const mixedScenario = applyOverrides(builtinScenario('mixed'), { rpcRate: MIXED_RATE, attrRate: MIXED_RATE });
  const mixed = (await simulate(simulation(url, mixedScenario, MIXED_DEVICES, durationMs), [], options.reportDir)).summary.simulator;
  const simFigures = { requests: sim.requests, cpuMs: sim.cpuMs, cpuMicrosPerRequest: sim.cpuMicrosPerRequest };
  return {
    rate,
    durationMs,
    autocannon: ac,
    simulator: { ...simFigures, devices: TELEMETRY_DEVICES },
    ratio: ac.cpuMicrosPerRequest ? Math.round((simFigures.cpuMicrosPerRequest / ac.cpuMicrosPerRequest) * 100) / 100 : 0,
    mixed: { requests: mixed.requests, cpuMs: mixed.cpuMs, cpuMicrosPerRequest: mixed.cpuMicrosPerRequest, devices: MIXED_DEVICES, rpcRate: MIXED_RATE, attrRate: MIXED_RATE },
  };
}
