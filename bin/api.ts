// The programmatic API, the package's second entry point next to the CLI:
//   import { conform, simulate, serve } from 'dhi';
// Each function runs what its command runs, with the command's own option and result types (one
// definition each, in the area's cli.ts) and the command's defaults, without printing. Each area is
// loaded only when its function is called, as the CLI does.
import { Command } from 'commander';
import type { ConformOptions, ConformResult } from '../conformance/cli.js';
import type { ServeOptions } from '../reference-server/cli.js';
import type { SimulateOptions } from '../simulator/cli.js';
import type { SimulateOutcome } from '../simulator/simulate.js';
import type { Threshold } from '../simulator/thresholds.js';

export type { ConformOptions, ConformResult } from '../conformance/cli.js';
export type { CaseRecord, ExpectationMatch, ExpectedOutcome, Outcome } from '../conformance/case.js';
export type { Failure, Severity } from '../conformance/verdict.js';
export type { ExpectationsVerdict } from '../conformance/report/json.js';
export type { ServeOptions } from '../reference-server/cli.js';
export type { SimulateOptions } from '../simulator/cli.js';
export type { SimulateOutcome } from '../simulator/simulate.js';
export type { Summary, PathSummary } from '../simulator/report/summary.js';
export type { Threshold, ThresholdOutcome } from '../simulator/thresholds.js';

/** No case could run: the target is unreachable (exitCode 3) or refused the control API login (2). */
export class ConformNotRun extends Error {
  constructor(message: string, readonly exitCode: number) {
    super(message);
    this.name = 'ConformNotRun';
  }
}

/**
 * Runs the conformance suite against `target` and writes its reports (`reportDir`, default
 * reports/conformance). Resolves to every case's record (id, severity, outcome, failures, and the
 * --expect entry it was checked against) and the exit code the CLI would give. Rejects on a bad
 * option or expectations file, and with ConformNotRun when no case could run.
 */
export async function conform(options: ConformOptions): Promise<ConformResult> {
  const { runConform } = await import('../conformance/cli.js');
  const result = await runConform({ print: () => {}, ...options });
  if (result.notRun) throw new ConformNotRun(result.notRun, result.exitCode);
  return result;
}

/** simulate()'s options: the command's, each optional but `target`; thresholds also as the CLI writes them ('rpc.p99<50'). */
export type SimulateInput = Partial<Omit<SimulateOptions, 'threshold'>> & Pick<SimulateOptions, 'target'> & { threshold?: (Threshold | string)[] };

/** The defaults of a command's options, read from the command itself (bin/commands.ts registers it). */
async function commandDefaults(name: string): Promise<Record<string, unknown>> {
  const { registerCommands } = await import('./commands.js');
  const program = new Command();
  registerCommands(program);
  const command = program.commands.find((c) => c.name() === name)!;
  return Object.fromEntries(command.options.filter((o) => o.defaultValue !== undefined).map((o) => [o.attributeName(), o.defaultValue]));
}

/**
 * Runs a fleet of virtual devices against `target` (durations in milliseconds) and writes its
 * reports. Resolves to the summary (what summary.json holds), the report folder, and the exit code
 * the CLI would give (0 passed, 1 a threshold breached). Rejects on a bad option or a failed run.
 */
export async function simulate(options: SimulateInput): Promise<SimulateOutcome> {
  const [{ configFromOptions }, { simulate: run }, { parseThreshold }, { withPrometheus }] = await Promise.all([
    import('../simulator/cli.js'), import('../simulator/simulate.js'), import('../simulator/thresholds.js'), import('../simulator/prometheus.js'),
  ]);
  const thresholds = (options.threshold ?? []).reduce<Threshold[]>((all, t) => (typeof t === 'string' ? parseThreshold(t, all) : [...all, t]), []);
  const full = { ...(await commandDefaults('simulate')), ...options, threshold: thresholds } as SimulateOptions;
  const config = configFromOptions(full);
  return withPrometheus(full, () => {}, undefined, (onEvent) => run(config, thresholds, full.reportDir, onEvent));
}

export interface ServerHandle {
  /** The device and control API over HTTP, e.g. http://127.0.0.1:38211. */
  url: string;
  /** The same over HTTPS, unless `httpsPort: -1`. */
  httpsUrl?: string;
  /** With `metrics: true`: the Prometheus endpoint. */
  metricsUrl?: string;
  /** Answers open polls, lets requests in flight finish, commits pending writes, closes the store. */
  close(): Promise<void>;
}

/**
 * Starts the reference server with the command's options and defaults (port 8080, HTTPS 8443, the
 * store in ./data/dhi.db): for a test, `{ port: 0, httpsPort: -1, db: ':memory:' }`.
 */
export async function serve(options: ServeOptions = {}): Promise<ServerHandle> {
  const [{ configFromOptions }, { startServer }] = await Promise.all([import('../reference-server/cli.js'), import('../reference-server/server.js')]);
  const server = await startServer(configFromOptions(options));
  const metricsUrl = options.metrics ? `${server.httpUrl}/metrics` : undefined;
  return { url: server.httpUrl, ...(server.httpsUrl && { httpsUrl: server.httpsUrl }), ...(metricsUrl && { metricsUrl }), close: () => server.close() };
}
