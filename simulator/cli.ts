// `dhi simulate`: turns parsed options into a validated SimulationConfig, runs the engine with the
// live presenter, writes the reports, prints the table, and sets the exit code
// (0 passed, 1 a threshold was breached, 2 usage error, 3 the run itself failed, 130 interrupted).
import type { Command } from 'commander';
import { ControlError } from './control.js';
import { FleetError } from './fleet.js';
import { exportK6 } from './k6/export.js';
import type { ProfileSpec } from './profiles.js';
import { interruptOnSigint } from './interrupt.js';
import { ExporterError, withPrometheus } from './prometheus.js';
import { createProgress } from './progress.js';
import { renderTable } from './report/table.js';
import { loadTemplates } from './routes.js';
import { applyOverrides, loadScenario, ScenarioError } from './scenario.js';
import { CalibrationError, calibrate, renderCalibration } from './calibration/run.js';
import { DEFAULT_CALIBRATION, type CalibrationPlan } from './calibration/plan.js';
import { SimulationError, type EngineEvent, type SimulationConfig } from './simulation.js';
import { EXIT, simulate } from './simulate.js';
import type { Threshold } from './thresholds.js';

export interface SimulateOptions {
  /** Required unless `calibrate`: then the built-in target stands in for it. */
  target?: string;
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
  maxConnectionsPerDevice: number;
  /** --request-timeout, in milliseconds. */
  requestTimeout: number;
  seed: number;
  exportK6?: string;
  keepDevices: boolean;
  insecure: boolean;
  /** --calibrate [plan]: `true` when given alone (the default plan). */
  calibrate?: CalibrationPlan | true;
  /** Serve the run's metrics for Prometheus on this port (0: any free one) while it runs. */
  prometheusPort?: number;
  prometheusHost: string;
  /** Milliseconds the metrics stay up after the run, for a last scrape. */
  prometheusLinger: number;
}


export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The calibration plan of `--calibrate [plan]`, or undefined without it. */
export function calibrationPlan(options: SimulateOptions): CalibrationPlan | undefined {
  return options.calibrate === true ? DEFAULT_CALIBRATION : options.calibrate;
}

/** Where a calibration run's config points until the built-in target is up (calibrate() replaces it). */
const CALIBRATION_PLACEHOLDER = 'http://127.0.0.1';

/** Validate option combinations and build the engine's configuration. */
export function configFromOptions(options: SimulateOptions): SimulationConfig {
  if (options.calibrate) {
    const clash = options.target ? '--target' : options.controlUrl ? '--control-url' : options.threshold?.length ? '--threshold' : options.exportK6 ? '--export-k6' : undefined;
    if (clash) throw new UsageError(`--calibrate and ${clash} exclude each other: a calibration runs against its own built-in target and judges the simulator, not a server`);
  } else if (!options.target) throw new UsageError('--target is required (or --calibrate, to run against a built-in target of known latency)');
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
  const target = options.target ?? CALIBRATION_PLACEHOLDER;
  return {
    target,
    controlUrl: options.controlUrl ?? target,
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
    maxConnectionsPerDevice: options.maxConnectionsPerDevice,
    requestTimeoutMs: options.requestTimeout,
  };
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
    const input = {
      scenario: config.scenario, templates: await loadTemplates(), target: config.target, controlUrl: config.controlUrl, username: config.username,
      devices: config.devices, durationMs: config.durationMs, requestTimeoutMs: config.requestTimeoutMs, maxConnectionsPerDevice: config.maxConnectionsPerDevice,
    };
    exportK6(options.exportK6, input, thresholds);
    print(`k6 script written to ${options.exportK6} (scenario ${config.scenario.name}); run it with: k6 run -e DHI_TARGET=${config.target} ${options.exportK6}\n`);
    return;
  }
  // Ctrl-C ends the run early; the reports are still written and the devices still deleted.
  const interrupt = interruptOnSigint(print);
  const progress = createProgress({ write: print, isTTY: Boolean(process.stdout.isTTY), columns: process.stdout.columns });
  const plan = calibrationPlan(options);
  try {
    if (plan) return await runCalibration(config, plan, options.reportDir, progress, interrupt.signal, print);
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
    const usage = (error instanceof FleetError && error.usage) || error instanceof CalibrationError || error instanceof ExporterError;
    if (usage || error instanceof FleetError || error instanceof SimulationError || error instanceof ControlError) {
      console.error(`dhi simulate: ${(error as Error).message}`);
      process.exitCode = usage ? EXIT.usage : EXIT.failed;
    } else throw error;
  } finally {
    interrupt.dispose();
  }
}

/** `--calibrate`: the run against the built-in target, then its figures next to the target's; exit 1 when one is off. */
async function runCalibration(config: SimulationConfig, plan: CalibrationPlan, reportDir: string, progress: (event: EngineEvent) => void, signal: AbortSignal, print: (text: string) => void): Promise<void> {
  const outcome = await calibrate(config, plan, reportDir, progress, signal);
  print(`\n${renderTable(outcome.summary)}\n\n${renderCalibration(outcome)}\n`);
  print(`reports: ${outcome.reportDir}/summary.json, ${outcome.reportDir}/report.html, ${outcome.reportDir}/calibration.json\n`);
  if (outcome.summary.interrupted) console.error('dhi simulate: interrupted (the calibration covers the run until Ctrl-C)');
  process.exitCode = outcome.summary.interrupted ? EXIT.interrupted : outcome.passed ? EXIT.passed : EXIT.breached;
}
