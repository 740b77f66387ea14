// `dhi conform`: select cases, check the target answers, log in to the control API, run, report.
// runConform() is the entry point for the command and for `dhi demo`.
import { randomBytes } from 'node:crypto';
import { loadContract } from '../spec/load.js';
import { blocksRun, opOf, type Case, type CaseRecord } from './case.js';
import { catalogue, robustness } from './cases/index.js';
import { createHttpTarget, RequestFailed, type HttpTarget, type Reply } from './client.js';
import { createContractChecker } from './contract-check.js';
import { login, type LoginResult } from './control/index.js';
import { ExpectationsError, markExpected, loadExpectations, verdictLines, verdictOf, writeExpectations, type Expectations, type WrittenExpectations } from './expectations.js';
import { caseLine, summaryLines } from './report/console.js';
import { githubAnnotations, githubSummary, type GithubContext } from './report/github.js';
import { countRecords, mustNotRun, type ExpectationsVerdict, type RunReport } from './report/json.js';
import { appendFile } from 'node:fs/promises';
import { writeReports } from './report/write.js';
import { runCases } from './runner.js';
import { EXIT } from '../cli/exit-codes.js';

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
  /** MUST cases that did not run (no control API, no rules API) do not fail the run. */
  allowSkips?: boolean;
  /** Add the robustness cases (group 7: hostile bodies, slow clients, aborted polls). */
  robustness?: boolean;
  /** The target's client-side RPC timeout: case 7.7.1 waits this long plus a margin. */
  clientRpcTimeout?: number;
  list?: boolean;
  agent?: string;
  reportDir?: string;
  insecure?: boolean;
  concurrency?: number;
  /** The known departures of the target (YAML or JSON): the run fails on any other outcome. */
  expect?: string;
  /** Write an expectations file from this run (reasons of --expect kept, new ones to fill in). */
  writeExpect?: string;
  /** Under GitHub Actions: the step summary file to append to, and the run's page for links. */
  github?: GithubContext;
  /** Where console lines go; default stdout. */
  print?: (line: string) => void;
}

export interface ConformResult {
  exitCode: number;
  reportDir: string;
  counts: Record<string, number>;
  /** Every case of the run, in catalogue order (empty when none ran: --list, exit codes 2 and 3). */
  cases: CaseRecord[];
  /** With --expect: the entries that held, and those to add, change or remove. */
  expectations?: ExpectationsVerdict;
  /** With --write-expect: the file written. */
  written?: WrittenExpectations;
  /** Why no case ran, when none did (exit code 2 or 3). */
  notRun?: string;
}

/** A bad option: the CLI exits 2 with this message. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const DEFAULTS = { username: 'tenant@thingsboard.org', password: 'tenant', reportDir: 'reports/conformance', concurrency: 8, clientRpcTimeoutMs: 30_000 } as const;
/** Case and request bounds; a case that waits out the client-RPC timeout gets that plus this margin. */
const CASE_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 30_000;
const TIMEOUT_MARGIN_MS = 10_000;

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

/**
 * 1 when a case that counts failed or errored (MUST always, SHOULD under --strict), or a MUST case
 * did not run and --allow-skips was not given (a run that did not test is not a pass), or a case
 * with an --expect entry did not end as the entry says (blocksRun in case.ts).
 */
export function exitCodeOf(records: readonly CaseRecord[], strict: boolean, allowSkips = false): number {
  return records.some((r) => blocksRun(r, strict, allowSkips)) ? 1 : 0;
}

const needsControl = (c: Case) => Boolean(c.devices) || Boolean(c.control);

export async function runConform(input: ConformOptions): Promise<ConformResult> {
  const print = input.print ?? ((line: string) => console.log(line));
  const concurrency = input.concurrency ?? DEFAULTS.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new UsageError(`--concurrency: expected an integer in 1..256, got ${concurrency}`);
  const reportDir = input.reportDir ?? DEFAULTS.reportDir;
  const strict = input.strict ?? false;
  const allowSkips = input.allowSkips ?? false;
  const selected = selectCases(input.robustness ? [...catalogue, ...robustness] : catalogue, input.cases, input.exclude);
  if (selected.length === 0) {
    const exclude = input.exclude?.length ? ` --exclude ${input.exclude.join(',')}` : '';
    throw new UsageError(`no case matches --cases ${(input.cases ?? []).join(',') || '*'}${exclude} (see --list)`);
  }
  if (input.list) {
    catalogueLines(selected).forEach((line) => print(line));
    return { exitCode: 0, reportDir, counts: { total: selected.length }, cases: [] };
  }
  if (!input.target) throw new UsageError('--target <url> is required (the base URL of the device API)');
  const target = checkUrl('--target', input.target);
  const controlUrl = checkUrl('--control-url', input.controlUrl ?? target);
  const expectations = input.expect ? await readExpectations(input.expect) : undefined;
  const notRun = (exitCode: number, why: string): ConformResult => {
    print(`dhi conform: ${why}`);
    return { exitCode, reportDir, counts: {}, cases: [], notRun: why };
  };

  const checker = createContractChecker(await loadContract());
  const connections = concurrency * 3 + 2; // a case holds up to two polls and a REST call at once
  const clientRpcTimeoutMs = input.clientRpcTimeout ?? DEFAULTS.clientRpcTimeoutMs;
  const longestWaitMs = clientRpcTimeoutMs + TIMEOUT_MARGIN_MS; // 7.7.1 waits out the target's timeout
  const requestTimeoutMs = Math.max(REQUEST_TIMEOUT_MS, longestWaitMs);
  const device = createHttpTarget({ baseUrl: target, insecure: input.insecure ?? false, connections, requestTimeoutMs });
  const controlHttp = createHttpTarget({ baseUrl: controlUrl, insecure: input.insecure ?? false, connections, requestTimeoutMs: REQUEST_TIMEOUT_MS });
  try {
    const probed = await probe(device);
    if (typeof probed === 'string') return notRun(EXIT.cannotRun, `the target ${target} is not reachable: ${probed}`);
    if (probed.status !== 401) {
      const type = probed.mediaType || 'no content type';
      print(`dhi conform: warning: the target does not look like the device API: GET ${target}${PROBE_PATH} answered ${probed.status} (${type}, ${probed.bytes.length} bytes) where a device API answers an unknown token 401`);
    }
    const startedAt = new Date();
    // Log in only when a selected case needs the control API; a failed login ends the run before
    // any case, unless --allow-skips accepts that those cases do not run.
    const controlNeeded = selected.some(needsControl);
    const session: LoginResult = controlNeeded
      ? await login(controlHttp, input.username ?? DEFAULTS.username, input.password ?? DEFAULTS.password)
      : { unavailable: 'no selected case needs the control API' };
    if (controlNeeded && session.unavailable) {
      if (!allowSkips) return notRun(EXIT.usage, `${session.unavailable}; check --control-url, --username and --password (or --allow-skips to run only the cases without it)`);
      print(`dhi conform: ${session.unavailable}; the cases that need it are skipped (--allow-skips)`);
    }
    const agent = input.agent ?? new URL(target).host;
    print(`dhi conform: ${selected.length} cases against ${target} (agent ${agent}, concurrency ${concurrency})`);
    const records = await runCases(selected, {
      device,
      control: { http: controlHttp, jwt: session.jwt, unavailable: session.unavailable },
      checker,
      concurrency,
      caseTimeoutMs: Math.max(CASE_TIMEOUT_MS, longestWaitMs),
      clientRpcTimeoutMs,
      runId: randomBytes(4).toString('hex'),
      onRecord: (r) => {
        if (expectations) markExpected(r, expectations, agent);
        print(caseLine(r, session.unavailable));
      },
    });
    const durationMs = Date.now() - startedAt.getTime();
    const counts = countRecords(records);
    const exitCode = exitCodeOf(records, strict, allowSkips);
    const verdict = input.expect ? verdictOf(input.expect, records, (r) => blocksRun(r, strict, allowSkips)) : undefined;
    const run: RunReport = {
      agent,
      target,
      controlUrl,
      ...(controlNeeded && session.unavailable && { controlUnavailable: session.unavailable }),
      startedAt: startedAt.toISOString(),
      durationMs,
      strict,
      allowSkips,
      ...(controlNeeded && { login: { username: input.username ?? DEFAULTS.username, passwordIsDefault: (input.password ?? DEFAULTS.password) === DEFAULTS.password } }),
      exitCode,
      counts,
      mustNotRun: mustNotRun(records),
      ...(verdict && { expectations: verdict }),
      cases: records,
    };
    await writeReports(reportDir, run);
    summaryLines(run, reportDir).forEach((line) => print(line));
    if (verdict) verdictLines(verdict, records).forEach((line) => print(line));
    const written = input.writeExpect ? await writeExpectations(input.writeExpect, records, run, expectations) : undefined;
    if (written) print(`wrote ${written.entries} entries to ${written.file}${written.unexplained.length ? `: fill in the reason of ${written.unexplained.join(', ')} (a run with --expect refuses an entry without one)` : ''}`);
    if (input.github) {
      githubAnnotations(run).forEach((line) => print(line));
      if (input.github.stepSummary) await appendFile(input.github.stepSummary, githubSummary(run, reportDir, input.github));
    }
    return { exitCode, reportDir, counts, cases: records, ...(verdict && { expectations: verdict }), ...(written && { written }) };
  } finally {
    await Promise.all([device.close(), controlHttp.close()]);
  }
}

/** Every id this dhi has (robustness cases too): an expectations file may name any of them. */
async function readExpectations(file: string): Promise<Expectations> {
  try {
    return await loadExpectations(file, new Set([...catalogue, ...robustness].map((c) => c.id)));
  } catch (error) {
    if (error instanceof ExpectationsError) throw new UsageError(error.message);
    throw error;
  }
}

const PROBE_PATH = '/api/v1/dhi-conform-probe/attributes';

/** The answer to a read with an unknown token (a device API says 401), or why there was none. */
async function probe(device: HttpTarget): Promise<Reply | string> {
  try {
    return await device.send({ method: 'GET', path: PROBE_PATH, deadlineMs: 10_000 }, 'device', () => undefined);
  } catch (error) {
    if (error instanceof RequestFailed) return error.message;
    throw error;
  }
}
