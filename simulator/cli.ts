// `dhi simulate`: turns parsed options into a validated SimulationConfig, runs the engine with the
// live presenter, writes the reports, prints the table, and sets the exit code
// (0 passed, 1 a threshold was breached, 2 usage error, 3 the run itself failed, 130 interrupted).
import type { Command } from 'commander';
import { runSimulation, SimulationError, type EngineEvent, type SimulationConfig } from './engine.js';
import { ControlError } from './control.js';
import { FleetError } from './fleet.js';
import { exportK6 } from './k6/export.js';
import type { ProfileSpec } from './profiles.js';
import { interruptOnSigint } from './interrupt.js';
import { ExporterError, withPrometheus } from './prometheus.js';
import { createProgress } from './progress.js';
import { buildSummary, type Summary } from './report/summary.js';
import { writeReports } from './report/write.js';
import { renderTable } from './report/table.js';
import { loadTemplates } from './routes.js';
import { applyOverrides, loadScenario, ScenarioError } from './scenario.js';
import type { Threshold } from './thresholds.js';

export interface SimulateOptions {
  target: string;
  devices: number;
  duration: number;
  scenario: string;
  rate?: number;
  interval?: number;
  ramp?: number;
  warmup?: number;
  profile?: ProfileSpec;
  rpcRate?: number;
  attrRate?: number;
  controlUrl?: string;
  username: string;
  password: string;
  provisionKey?: string;
  provisionSecret?: string;
  tokens?: string;
  threshold?: Threshold[];
  reportDir: string;
  workers: number;
  seed: number;
  exportK6?: string;
  keepDevices: boolean;
  insecure: boolean;
  /** Serve the run's metrics for Prometheus on this port (0: any free one) while it runs. */
  prometheusPort?: number;
  prometheusHost: string;
  /** Milliseconds the metrics stay up after the run, for a last scrape. */
  prometheusLinger: number;
}

/** 130: the shell's code for a run ended by SIGINT (128 + 2), kept for a run stopped early with Ctrl-C. */
export const EXIT = { passed: 0, breached: 1, usage: 2, failed: 3, interrupted: 130 } as const;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Validate option combinations and build the engine's configuration. */
export function configFromOptions(options: SimulateOptions): SimulationConfig {
  if (Boolean(options.provisionKey) !== Boolean(options.provisionSecret)) {
    throw new UsageError(`--provision-key and --provision-secret go together (${options.provisionKey ? '--provision-secret' : '--provision-key'} is missing)`);
  }
  if (options.tokens && options.provisionKey) throw new UsageError('--tokens and --provision-key exclude each other: the fleet comes from one of them');
  const scenario = applyOverrides(loadScenario(options.scenario), {
    rate: options.rate,
    intervalMs: options.interval,
    profile: options.profile,
    rpcRate: options.rpcRate,
    attrRate: options.attrRate,
  });
  return {
    target: options.target,
    controlUrl: options.controlUrl ?? options.target,
    username: options.username,
    password: options.password,
    devices: options.devices,
    durationMs: options.duration,
    scenario,
    rampPerSecond: options.ramp ?? null,
    provision: options.provisionKey ? { key: options.provisionKey, secret: options.provisionSecret as string } : null,
    tokensFile: options.tokens ?? null,
    workers: options.workers,
    seed: options.seed,
    keepDevices: options.keepDevices,
    insecure: options.insecure,
    warmupMs: options.warmup ?? null,
  };
}

export interface SimulateOutcome {
  summary: Summary;
  reportDir: string;
  exitCode: number;
  sampleToken?: string;
}

/** Run, write reports; the programmatic entry used by the CLI, the demo and tests. */
export async function simulate(
  config: SimulationConfig,
  thresholds: Threshold[],
  reportDir: string,
  emit?: (event: EngineEvent) => void,
  interrupt?: AbortSignal,
): Promise<SimulateOutcome> {
  const result = await runSimulation(config, emit, interrupt);
  const summary = buildSummary(result, thresholds);
  const dir = writeReports(summary, reportDir);
  const exitCode = summary.interrupted ? EXIT.interrupted : summary.passed ? EXIT.passed : EXIT.breached;
  return { summary, reportDir: dir, exitCode, sampleToken: result.sampleToken };
}

export async function runSimulate(options: SimulateOptions, command?: Command): Promise<void> {
  const print = (text: string) => process.stdout.write(text);
  let config: SimulationConfig;
  try {
    config = configFromOptions(options);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ScenarioError) {
      console.error(`dhi simulate: ${error.message}`);
      if (command) console.error(`(see dhi simulate --help)`);
      process.exitCode = EXIT.usage;
      return;
    }
    throw error;
  }
  const thresholds = options.threshold ?? [];
  if (options.exportK6) {
    const input = { scenario: config.scenario, templates: await loadTemplates(), target: config.target, controlUrl: config.controlUrl, username: config.username, devices: config.devices, durationMs: config.durationMs };
    exportK6(options.exportK6, input, thresholds);
    print(`k6 script written to ${options.exportK6} (scenario ${config.scenario.name}); run it with: k6 run -e DHI_TARGET=${config.target} ${options.exportK6}\n`);
    return;
  }
  // Ctrl-C ends the run early; the reports are still written and the devices still deleted.
  const interrupt = interruptOnSigint(print);
  try {
    const progress = createProgress({ write: print, isTTY: Boolean(process.stdout.isTTY), columns: process.stdout.columns });
    // The table and the reports first, then the metrics' linger (if any).
    const outcome = await withPrometheus(options, print, interrupt.signal, async (onEvent) => {
      const done = await simulate(config, thresholds, options.reportDir, onEvent ? (e) => (onEvent(e), progress(e)) : progress, interrupt.signal);
      print(`\n${renderTable(done.summary)}\n`);
      print(`reports: ${done.reportDir}/summary.json, ${done.reportDir}/report.html\n`);
      return done;
    });
    if (outcome.exitCode === EXIT.breached) console.error('dhi simulate: a threshold was breached');
    if (outcome.exitCode === EXIT.interrupted) console.error('dhi simulate: interrupted (the reports cover the run until Ctrl-C)');
    process.exitCode = outcome.exitCode;
  } catch (error) {
    if (error instanceof FleetError || error instanceof SimulationError || error instanceof ControlError || error instanceof ExporterError) {
      console.error(`dhi simulate: ${error.message}`);
      process.exitCode = (error instanceof FleetError && error.usage) || error instanceof ExporterError ? EXIT.usage : EXIT.failed;
    } else throw error;
  } finally {
    interrupt.dispose();
  }
}
