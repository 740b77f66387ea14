// What a conformance case is: data (id, title, requirement, severity) plus one small function that
// drives the server through a CaseRun and records failures from named checks (checks.ts).
import type { Control } from './control/index.js';
import type { Exchange, Reply, RequestSpec } from './client.js';
import type { DeviceFixture } from './control/devices.js';
import { blocks, SEVERITIES, type Failure, type Severity } from './verdict.js';

export type Outcome = 'pass' | 'fail' | 'skipped' | 'error';

/** What an expectations file (--expect) may say a case ends as: a known departure, never a pass. */
export type ExpectedOutcome = Exclude<Outcome, 'pass'>;

export const OUTCOMES: readonly Outcome[] = ['pass', 'fail', 'skipped', 'error'];
export const EXPECTED_OUTCOMES: readonly ExpectedOutcome[] = ['fail', 'error', 'skipped'];

/** Device request: the operationId names the contract operation its response is validated against. */
export interface DeviceRequest extends RequestSpec {
  operationId?: string;
}

export interface CaseRun {
  /** The target's base URL, for cases that speak raw HTTP over their own sockets (robustness). */
  baseUrl: string;
  devices: DeviceFixture[];
  control: Control;
  /** A short unique prefix for names this case creates (devices, profiles, customers, packages). */
  unique: string;
  /** How long the target keeps a device-side RPC that no rule answers (`--client-rpc-timeout`). */
  clientRpcTimeoutMs: number;
  device(request: DeviceRequest): Promise<Reply>;
  /** Record the failures among the results (undefined means the check held). */
  expect(...results: (Failure | undefined)[]): void;
  /** Ends the case as skipped, e.g. when the server has no way to set up what the case needs. */
  skip(reason: string): never;
  /** Register an action that undoes a side effect; run in reverse order after the case. */
  cleanup(action: () => Promise<unknown>): void;
  wait(ms: number): Promise<void>;
}

export interface Case {
  id: string;
  title: string;
  /** The requirement in one sentence, and where it comes from. */
  requirement: string;
  severity: Severity;
  /** Devices to create before the case (needs the control API). */
  devices?: number;
  /** Needs the control API even without devices (e.g. provisioning profiles). */
  control?: boolean;
  run(t: CaseRun): Promise<void>;
}

/** The record of one case in a run: what index.json, junit.xml and index.html are made of. */
export interface CaseRecord {
  id: string;
  title: string;
  requirement: string;
  severity: Severity;
  outcome: Outcome;
  /** The strongest severity among the failures (a MUST case may fail only a SHOULD sub-claim). */
  failedSeverity?: Severity;
  failures: Failure[];
  reason?: string;
  /** Harness remarks: control responses that differ from the document, failed cleanups. */
  notes?: string[];
  durationMs: number;
  transcript: Exchange[];
  /** The entry of the expectations file (--expect) for this case, and whether the outcome matched it. */
  expected?: ExpectationMatch;
}

/** An expectations entry applied to a record: `held` when the case ended as the entry says. */
export interface ExpectationMatch {
  outcome: ExpectedOutcome;
  reason: string;
  agent?: string;
  held: boolean;
}

// Groups 1-6 as design.md lists them; 7 is robustness (run with --robustness).
const ID = /^(\d+)\.([1-7])\.(\d+)$/;

/** Numeric order of ids: 1.2.10 after 1.2.9, 10.x after 9.x. */
export function compareIds(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

export function opOf(id: string): number {
  return Number(id.split('.')[0]);
}

/** Problems with a catalogue: malformed or duplicate ids, empty titles or requirements. */
export function catalogueProblems(cases: readonly Case[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const c of cases) {
    const m = ID.exec(c.id);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 10) problems.push(`${c.id}: id is not <op 1-10>.<group 1-7>.<n>`);
    if (seen.has(c.id)) problems.push(`${c.id}: duplicate id`);
    seen.add(c.id);
    if (!c.title.trim()) problems.push(`${c.id}: empty title`);
    if (!c.requirement.trim()) problems.push(`${c.id}: empty requirement`);
    if (!SEVERITIES.includes(c.severity)) problems.push(`${c.id}: unknown severity ${c.severity}`);
  }
  return problems;
}

/**
 * Does this record fail the run? An expectations entry decides alone: the run fails when the case
 * did not end as the entry says (a pass included: strict, so the file never goes stale). Without
 * one, a failure or error blocks at MUST (and SHOULD under --strict), and a MUST case that did not
 * run blocks unless --allow-skips.
 */
export function blocksRun(r: CaseRecord, strict: boolean, allowSkips = false): boolean {
  if (r.expected) return !r.expected.held;
  return (r.outcome === 'fail' && blocks(r.failedSeverity ?? r.severity, strict))
    || (r.outcome === 'error' && blocks(r.severity, strict))
    || (r.outcome === 'skipped' && r.severity === 'MUST' && !allowSkips);
}

/** A known departure: the case ended as its expectations entry says (counted apart from failures). */
export const expectedDeparture = (r: CaseRecord): boolean => r.expected?.held === true;
