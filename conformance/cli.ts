// `dhi conform`: select cases, check the target answers, log in to the control API, run, report.
// runConform() is the entry point for the command and for `dhi demo`.
import { randomBytes } from 'node:crypto';
import { loadContract } from '../spec/load.js';
import { blocks, opOf, type Case, type CaseRecord } from './case.js';
import { catalogue, robustness } from './cases/index.js';
import { createHttpTarget, RequestFailed, type HttpTarget } from './client.js';
import { createContractChecker } from './contract-check.js';
import { login } from './control/index.js';
import { caseLine, summaryLines } from './report/console.js';
import { countRecords, type RunReport } from './report/json.js';
import { writeReports } from './report/write.js';
import { runCases } from './runner.js';

export interface ConformOptions {
  /** Base URL of the device API; required unless `list`. */
  target?: string;
  /** Default: the target. */
  controlUrl?: string;
  username?: string;
  password?: string;
  /** Id globs (`4.*`, `*.3.*`, `1.2.1`); each may hold several, comma-separated. */
  cases?: string[];
  exclude?: string[];
  strict?: boolean;
  /** Add the robustness cases (group 7: hostile bodies, slow clients, aborted polls). */
  robustness?: boolean;
  list?: boolean;
  agent?: string;
  reportDir?: string;
  insecure?: boolean;
  concurrency?: number;
  /** Where console lines go; default stdout. */
  print?: (line: string) => void;
}

export interface ConformResult {
  exitCode: number;
  reportDir: string;
  counts: Record<string, number>;
}

/** A bad option: the CLI exits 2 with this message. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const DEFAULTS = { username: 'tenant@thingsboard.org', password: 'tenant', reportDir: 'reports/conformance', concurrency: 8 } as const;
const CASE_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 30_000;

export function globToRegExp(glob: string): RegExp {
  const source = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`);
}

/** The cases whose ids match an include glob (all when none) and no exclude glob. */
export function selectCases(cases: readonly Case[], include: string[] = [], exclude: string[] = []): Case[] {
  const split = (globs: string[]) => globs.flatMap((g) => g.split(',')).map((g) => g.trim()).filter(Boolean);
  const inc = split(include).map(globToRegExp);
  const exc = split(exclude).map(globToRegExp);
  return cases.filter((c) => (inc.length === 0 || inc.some((r) => r.test(c.id))) && !exc.some((r) => r.test(c.id)));
}

function checkUrl(option: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${option}: expected an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${option}: expected an http(s) URL, got "${value}"`);
  return value.replace(/\/+$/, '');
}

export function catalogueLines(cases: readonly Case[]): string[] {
  const lines = cases.map((c) => `${c.id.padEnd(7)} ${c.severity.padEnd(6)} ${c.title}`);
  const perOp = new Map<number, number>();
  for (const c of cases) perOp.set(opOf(c.id), (perOp.get(opOf(c.id)) ?? 0) + 1);
  const summary = [...perOp].sort((a, b) => a[0] - b[0]).map(([op, n]) => `op ${op}: ${n}`).join(', ');
  return [...lines, '', `${cases.length} cases (${summary})`];
}

/** 1 when a case that counts failed or errored: MUST always, SHOULD under --strict. */
export function exitCodeOf(records: readonly CaseRecord[], strict: boolean): number {
  const broken = records.some((r) => (r.outcome === 'fail' && blocks(r.failedSeverity ?? r.severity, strict)) || (r.outcome === 'error' && blocks(r.severity, strict)));
  return broken ? 1 : 0;
}

export async function runConform(input: ConformOptions): Promise<ConformResult> {
  const print = input.print ?? ((line: string) => console.log(line));
  const concurrency = input.concurrency ?? DEFAULTS.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new UsageError(`--concurrency: expected an integer in 1..256, got ${concurrency}`);
  const reportDir = input.reportDir ?? DEFAULTS.reportDir;
  const strict = input.strict ?? false;
  const selected = selectCases(input.robustness ? [...catalogue, ...robustness] : catalogue, input.cases, input.exclude);
  if (selected.length === 0) throw new UsageError(`no case matches --cases ${(input.cases ?? []).join(',') || '*'} --exclude ${(input.exclude ?? []).join(',')}`);
  if (input.list) {
    catalogueLines(selected).forEach((line) => print(line));
    return { exitCode: 0, reportDir, counts: { total: selected.length } };
  }
  if (!input.target) throw new UsageError('--target <url> is required (the base URL of the device API)');
  const target = checkUrl('--target', input.target);
  const controlUrl = checkUrl('--control-url', input.controlUrl ?? target);

  const checker = createContractChecker(await loadContract());
  const connections = concurrency * 3 + 2; // a case holds up to two polls and a REST call at once
  const device = createHttpTarget({ baseUrl: target, insecure: input.insecure ?? false, connections, requestTimeoutMs: REQUEST_TIMEOUT_MS });
  const controlHttp = createHttpTarget({ baseUrl: controlUrl, insecure: input.insecure ?? false, connections, requestTimeoutMs: REQUEST_TIMEOUT_MS });
  try {
    const unreachable = await probe(device);
    if (unreachable) {
      print(`dhi conform: the target ${target} is not reachable: ${unreachable}`);
      return { exitCode: 2, reportDir, counts: {} };
    }
    const startedAt = new Date();
    const session = await login(controlHttp, input.username ?? DEFAULTS.username, input.password ?? DEFAULTS.password);
    if (session.unavailable) print(`dhi conform: cases that need the control API are skipped: ${session.unavailable}`);
    const agent = input.agent ?? new URL(target).host;
    print(`dhi conform: ${selected.length} cases against ${target} (agent ${agent}, concurrency ${concurrency})`);
    const records = await runCases(selected, {
      device,
      control: { http: controlHttp, jwt: session.jwt, unavailable: session.unavailable },
      checker,
      concurrency,
      caseTimeoutMs: CASE_TIMEOUT_MS,
      runId: randomBytes(4).toString('hex'),
      onRecord: (r) => print(caseLine(r, session.unavailable)),
    });
    const durationMs = Date.now() - startedAt.getTime();
    const counts = countRecords(records);
    const exitCode = exitCodeOf(records, strict);
    const run: RunReport = {
      agent,
      target,
      controlUrl,
      ...(session.unavailable && { controlUnavailable: session.unavailable }),
      startedAt: startedAt.toISOString(),
      durationMs,
      strict,
      exitCode,
      counts,
      cases: records,
    };
    await writeReports(reportDir, run);
    summaryLines(agent, counts, durationMs, exitCode, reportDir).forEach((line) => print(line));
    return { exitCode, reportDir, counts };
  } finally {
    await Promise.all([device.close(), controlHttp.close()]);
  }
}

/** Any HTTP answer means the target is there; only a failed connection is "unreachable". */
async function probe(device: HttpTarget): Promise<string | undefined> {
  try {
    await device.send({ method: 'GET', path: '/api/v1/dhi-conform-probe/attributes', deadlineMs: 10_000 }, 'device', () => undefined);
    return undefined;
  } catch (error) {
    if (error instanceof RequestFailed) return error.message;
    throw error;
  }
}
