// Runs cases concurrently, each with its own devices and transcript; cleans up after every case.
import { type Case, type CaseRecord, type CaseRun, type DeviceRequest } from './case.js';
import { SkipCase, strongest, type Failure } from './verdict.js';
import { RequestFailed, type Exchange, type HttpTarget, type Reply } from './client.js';
import type { ContractChecker } from './contract-check.js';
import { ControlError, createControl, unavailableControl, type Control } from './control/index.js';

export interface RunnerOptions {
  device: HttpTarget;
  control: { http: HttpTarget; jwt?: string; unavailable?: string };
  checker: ContractChecker;
  concurrency: number;
  /** A case still running after this long ends as an error (the harness gave up on it). */
  caseTimeoutMs: number;
  /** The target's client-side RPC timeout (`--client-rpc-timeout`). */
  clientRpcTimeoutMs: number;
  /** Short random id that keeps names of this run's devices apart from other runs'. */
  runId: string;
  onRecord?(record: CaseRecord): void;
}

export async function runCases(cases: readonly Case[], options: RunnerOptions): Promise<CaseRecord[]> {
  const records: CaseRecord[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      records[index] = await runCase(cases[index], options);
      options.onRecord?.(records[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, cases.length)) }, worker));
  return records;
}

export async function runCase(c: Case, options: RunnerOptions): Promise<CaseRecord> {
  const started = Date.now();
  const transcript: Exchange[] = [];
  const failures: Failure[] = [];
  const notes: string[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  const record = (e: Exchange) => transcript.push(e);
  const base = { id: c.id, title: c.title, requirement: c.requirement, severity: c.severity };
  const needsControl = Boolean(c.devices) || Boolean(c.control);
  if (needsControl && options.control.unavailable) {
    return { ...base, outcome: 'skipped', reason: `needs the control API: ${options.control.unavailable}`, failures, durationMs: 0, transcript };
  }
  const control: Control = options.control.jwt
    ? createControl({ http: options.control.http, jwt: options.control.jwt, checker: options.checker, record, note: (n) => notes.push(n), cleanup: (a) => cleanups.push(a) })
    : unavailableControl(options.control.unavailable ?? 'no control API');
  const unique = `dhi-${options.runId}-${c.id}`;

  const t: CaseRun = {
    baseUrl: options.device.baseUrl,
    devices: [],
    control,
    unique,
    clientRpcTimeoutMs: options.clientRpcTimeoutMs,
    async device(request: DeviceRequest): Promise<Reply> {
      const reply = await options.device.send(request, 'device', (e) => record({ ...e, operationId: request.operationId }));
      if (request.operationId) failures.push(...options.checker.check(request.operationId, reply, 'MUST'));
      return reply;
    },
    expect: (...results) => failures.push(...results.filter((f): f is Failure => f !== undefined)),
    skip(reason: string): never {
      throw new SkipCase(reason);
    },
    cleanup: (action) => cleanups.push(action),
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };

  let outcome: CaseRecord['outcome'] | undefined;
  let reason: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let caseStartedAt = Infinity;
  let cleanupStartedAt = Infinity;
  try {
    for (let i = 0; i < (c.devices ?? 0); i++) t.devices.push(await control.createDevice(`${unique}-d${i}`));
    caseStartedAt = Date.now();
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the case did not finish within ${options.caseTimeoutMs} ms`)), options.caseTimeoutMs);
    });
    await Promise.race([c.run(t), deadline]);
  } catch (error) {
    if (error instanceof SkipCase) [outcome, reason] = ['skipped', error.reason];
    else if (error instanceof RequestFailed) failures.push({ check: 'answered', expected: 'an HTTP response', actual: error.message });
    else if (error instanceof ControlError) [outcome, reason] = ['error', error.message];
    else [outcome, reason] = ['error', `harness: ${(error as Error).message}`];
  } finally {
    clearTimeout(timer);
  }
  cleanupStartedAt = Date.now();
  for (const action of cleanups.reverse()) {
    try {
      await action();
    } catch (error) {
      notes.push(`cleanup: ${(error as Error).message}`);
    }
  }
  const settled = failures.map((f) => ({ ...f, severity: f.severity ?? c.severity }));
  outcome ??= settled.length ? 'fail' : 'pass';
  // Exchanges are recorded as they end; a poll answered by a later change reads better in start order.
  transcript.sort((a, b) => a.startedAt - b.startedAt);
  for (const e of transcript) e.phase = e.startedAt < caseStartedAt ? 'set-up' : e.startedAt < cleanupStartedAt ? 'case' : 'clean-up';
  const result: CaseRecord = { ...base, outcome, failures: settled, durationMs: Date.now() - started, transcript };
  if (outcome === 'fail') result.failedSeverity = strongest(settled.map((f) => f.severity));
  if (reason) result.reason = reason;
  if (notes.length) result.notes = notes;
  return result;
}
