// A run's records as JSON; several agents' runs in one report directory are kept side by side
// (runs/<agent>.json) and merged into index.json, junit.xml and index.html.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectedDeparture, OUTCOMES, type CaseRecord, type Outcome } from '../case.js';

/**
 * The outcome counts leave out the known departures (`expected`: cases that ended as their --expect
 * entry says); `unexpected` counts entries that did not hold (those cases are counted by outcome).
 * mustNotRun: MUST cases the run selected that ended skipped (they fail it unless --allow-skips).
 */
export type Counts = Record<Outcome | 'total' | 'mustFailures' | 'shouldFailures' | 'mustNotRun' | 'expected' | 'unexpected', number>;

/** MUST cases that did not run, grouped by the reason. */
export interface NotRun {
  reason: string;
  ids: string[];
}

/** What a run says about its expectations file (--expect): the entries to add, change and remove. */
export interface ExpectationsVerdict {
  file: string;
  /** Cases that ended as their entry says. */
  held: string[];
  /** Cases that fail the run and have no entry: add one (or fix the implementation). */
  add: string[];
  /** Cases with an entry that ended otherwise than it says, but not as a pass: change the outcome. */
  change: string[];
  /** Cases with an entry that passed: remove the entry. */
  remove: string[];
}

export interface RunReport {
  agent: string;
  target: string;
  controlUrl: string;
  /** Why control cases were skipped, when they were. */
  controlUnavailable?: string;
  /** Who logged in to the control API (the password is never stored). */
  login?: { username: string; passwordIsDefault: boolean };
  /** --allow-skips: MUST cases that did not run do not fail the run. */
  allowSkips?: boolean;
  /** The MUST cases that did not run, and why. */
  mustNotRun?: NotRun[];
  /** --expect: the file, and the entries that held or are to be added, changed or removed. */
  expectations?: ExpectationsVerdict;
  startedAt: string;
  durationMs: number;
  strict: boolean;
  exitCode: number;
  counts: Counts;
  cases: CaseRecord[];
}

export interface ReportIndex {
  generatedAt: string;
  runs: RunReport[];
}

export function countRecords(records: readonly CaseRecord[]): Counts {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Counts;
  counts.total = records.length;
  counts.mustFailures = 0;
  counts.shouldFailures = 0;
  counts.mustNotRun = 0;
  counts.expected = 0;
  counts.unexpected = 0;
  for (const r of records) {
    if (r.expected && !r.expected.held) counts.unexpected++;
    if (expectedDeparture(r)) {
      counts.expected++;
      continue;
    }
    counts[r.outcome]++;
    if (r.outcome === 'skipped' && r.severity === 'MUST') counts.mustNotRun++;
    if (r.failedSeverity === 'MUST') counts.mustFailures++;
    if (r.failedSeverity === 'SHOULD') counts.shouldFailures++;
  }
  return counts;
}

export function mustNotRun(records: readonly CaseRecord[]): NotRun[] {
  const byReason = new Map<string, string[]>();
  for (const r of records) {
    if (r.outcome !== 'skipped' || r.severity !== 'MUST' || expectedDeparture(r)) continue;
    const reason = r.reason ?? 'no reason given';
    byReason.set(reason, [...(byReason.get(reason) ?? []), r.id]);
  }
  return [...byReason].map(([reason, ids]) => ({ reason, ids }));
}

/** A file name for the agent: letters, digits, dot, dash and underscore. */
export function agentSlug(agent: string): string {
  return agent.replace(/[^A-Za-z0-9._-]+/g, '_') || 'agent';
}

/** Stores this run and returns every run in the directory (this one included), by agent name. */
export async function storeRun(reportDir: string, run: RunReport): Promise<RunReport[]> {
  const runsDir = join(reportDir, 'runs');
  await mkdir(runsDir, { recursive: true });
  await writeFile(join(runsDir, `${agentSlug(run.agent)}.json`), JSON.stringify(run, null, 2));
  const runs: RunReport[] = [];
  for (const name of (await readdir(runsDir)).filter((n) => n.endsWith('.json')).sort()) {
    try {
      runs.push(JSON.parse(await readFile(join(runsDir, name), 'utf8')) as RunReport);
    } catch {
      // A file that is not a run (edited by hand, half written by another process) is left out.
    }
  }
  return runs;
}

export function indexJson(runs: RunReport[]): string {
  const index: ReportIndex = { generatedAt: new Date().toISOString(), runs };
  return JSON.stringify(index, null, 2);
}
