// Expectations (`dhi conform --expect FILE`): the known departures of an implementation, one entry
// per case id with the outcome it ends with and a one-line reason, so that CI gates on regressions
// rather than on departures the team already knows. Strict, as pytest's strict xfail: a listed case
// that passes fails the run too, so the file never goes stale. Case ids are only ever appended and
// never change meaning, so a file keeps working across dhi versions; an id that no case has is an
// error (a typo, or a file written by a newer dhi).
import { readFile, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse, YAMLParseError } from 'yaml';
import { compareIds, EXPECTED_OUTCOMES, type CaseRecord, type ExpectedOutcome } from './case.js';
import { isObject } from './checks.js';
import { brief } from './report/console.js';
import type { ExpectationsVerdict } from './report/json.js';

export interface ExpectationEntry {
  outcome: ExpectedOutcome;
  /** Why the implementation departs here: one line, never empty. */
  reason: string;
  /** The entry applies only to runs of this --agent; without it, to every run. */
  agent?: string;
}

/** Entries by case id; several per id only for distinct agents (at most one without an agent). */
export type Expectations = Map<string, ExpectationEntry[]>;

/** The file could not be used: every problem found, one per line. The CLI exits 2. */
export class ExpectationsError extends Error {
  constructor(readonly file: string, readonly problems: string[]) {
    super(`--expect ${file}: ${problems.length === 1 ? problems[0] : `${problems.length} problems:\n  ${problems.join('\n  ')}`}`);
    this.name = 'ExpectationsError';
  }
}

const FORMAT_VERSION = 1;
const TOP_KEYS = ['version', 'cases'];
const ENTRY_KEYS = ['outcome', 'reason', 'agent'];

function entryProblems(id: string, raw: unknown): { entry?: ExpectationEntry; problems: string[] } {
  if (!isObject(raw)) return { problems: [`${id}: expected {outcome, reason[, agent]}, got ${JSON.stringify(raw)}`] };
  const problems = Object.keys(raw).filter((k) => !ENTRY_KEYS.includes(k)).map((k) => `${id}: unknown key "${k}" (an entry has outcome, reason and optionally agent)`);
  const { outcome, reason, agent } = raw;
  if (!EXPECTED_OUTCOMES.includes(outcome as ExpectedOutcome)) problems.push(`${id}: outcome must be one of ${EXPECTED_OUTCOMES.join(', ')}, got ${JSON.stringify(outcome)} (a case expected to pass needs no entry)`);
  if (typeof reason !== 'string' || reason.trim() === '') problems.push(`${id}: the reason is missing: say in one line why this implementation departs here`);
  else if (/[\r\n]/.test(reason.trim())) problems.push(`${id}: the reason must be one line`);
  if (agent !== undefined && (typeof agent !== 'string' || agent === '')) problems.push(`${id}: agent must be a non-empty string (an --agent name)`);
  if (problems.length) return { problems };
  return { entry: { outcome: outcome as ExpectedOutcome, reason: (reason as string).trim(), ...(agent !== undefined && { agent: agent as string }) }, problems };
}

/** Checks a parsed file against the ids of every case this dhi has. */
export function parseExpectations(file: string, document: unknown, knownIds: ReadonlySet<string>): Expectations {
  if (!isObject(document) || !isObject(document.cases)) throw new ExpectationsError(file, ['expected a mapping with "cases": {<case id>: {outcome, reason}}']);
  const problems = Object.keys(document).filter((k) => !TOP_KEYS.includes(k)).map((k) => `unknown top-level key "${k}" (expected version and cases)`);
  if (document.version !== undefined && document.version !== FORMAT_VERSION) problems.push(`version ${JSON.stringify(document.version)} is not one this dhi reads (${FORMAT_VERSION})`);
  const expectations: Expectations = new Map();
  for (const [id, value] of Object.entries(document.cases)) {
    if (!knownIds.has(id)) {
      problems.push(`${id}: no case has this id (dhi conform --list --robustness prints every id; ids are never reused, so this is a typo or a file from a newer dhi)`);
      continue;
    }
    const entries: ExpectationEntry[] = [];
    for (const raw of Array.isArray(value) ? value : [value]) {
      const checked = entryProblems(id, raw);
      problems.push(...checked.problems);
      if (!checked.entry) continue;
      if (entries.some((e) => e.agent === checked.entry!.agent)) problems.push(`${id}: two entries for ${checked.entry.agent ? `agent ${checked.entry.agent}` : 'every agent'}`);
      entries.push(checked.entry);
    }
    expectations.set(id, entries);
  }
  if (problems.length) throw new ExpectationsError(file, problems);
  return expectations;
}

/** Reads a YAML or JSON file (JSON is read as YAML 1.2, which also catches duplicate ids). */
export async function loadExpectations(file: string, knownIds: ReadonlySet<string>): Promise<Expectations> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ExpectationsError(file, [`cannot read it: ${(error as Error).message}`]);
  }
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    const message = error instanceof YAMLParseError ? error.message.split('\n')[0] : (error as Error).message;
    throw new ExpectationsError(file, [`not valid ${extname(file) === '.json' ? 'JSON' : 'YAML'}: ${message}`]);
  }
  return parseExpectations(file, document, knownIds);
}

/** The entry for this agent, else the one for every agent. */
export function entryFor(expectations: Expectations, id: string, agent: string): ExpectationEntry | undefined {
  const entries = expectations.get(id) ?? [];
  return entries.find((e) => e.agent === agent) ?? entries.find((e) => e.agent === undefined);
}

/** Marks a record with its entry, if any, and whether the case ended as the entry says. */
export function markExpected(record: CaseRecord, expectations: Expectations, agent: string): void {
  const entry = entryFor(expectations, record.id, agent);
  if (entry) record.expected = { ...entry, held: record.outcome === entry.outcome };
}

export function verdictOf(file: string, records: readonly CaseRecord[], blocking: (r: CaseRecord) => boolean): ExpectationsVerdict {
  const ids = (pick: (r: CaseRecord) => boolean) => records.filter(pick).map((r) => r.id);
  return {
    file,
    held: ids((r) => r.expected?.held === true),
    add: ids((r) => !r.expected && blocking(r)),
    change: ids((r) => r.expected?.held === false && r.outcome !== 'pass'),
    remove: ids((r) => r.expected?.held === false && r.outcome === 'pass'),
  };
}

/** Console lines naming the entries to add, change or remove (with YAML to paste for new ones). */
export function verdictLines(verdict: ExpectationsVerdict, records: readonly CaseRecord[]): string[] {
  const { file, held, add, change, remove } = verdict;
  const byId = new Map(records.map((r) => [r.id, r]));
  const lines = [`expectations ${file}: ${held.length} known departures held, ${add.length} new failures, ${change.length} changed, ${remove.length} unexpected passes`];
  const snippet = (ids: string[]) => ids.flatMap((id) => {
    const r = byId.get(id)!;
    return entryLines(id, [{ outcome: r.outcome as ExpectedOutcome, reason: '' }], `${r.severity} ${r.title}`).map((l) => `    ${l}`);
  });
  if (add.length) lines.push(`  add to ${file} (then fill in each reason), or fix the implementation: ${add.join(', ')}`, ...snippet(add));
  if (change.length) lines.push(`  change in ${file}: ${change.map((id) => `${id} expects ${byId.get(id)!.expected!.outcome}, ended ${byId.get(id)!.outcome}`).join('; ')}`);
  if (remove.length) lines.push(`  remove from ${file} (these cases pass now): ${remove.join(', ')}`);
  return lines;
}

function entryFields(entry: ExpectationEntry): string[] {
  return [`outcome: ${entry.outcome}`, `reason: ${JSON.stringify(entry.reason)}`, ...(entry.agent ? [`agent: ${JSON.stringify(entry.agent)}`] : [])];
}

/** One id's YAML: a mapping for one entry, a list for entries of several agents. */
function entryLines(id: string, entries: ExpectationEntry[], comment: string): string[] {
  const fields = entries.length === 1
    ? entryFields(entries[0]).map((f) => `  ${f}`)
    : entries.flatMap((e) => entryFields(e).map((f, i) => `${i === 0 ? '  - ' : '    '}${f}`));
  return [`# ${comment}`, `${JSON.stringify(id)}:`, ...fields];
}

export interface WrittenExpectations {
  file: string;
  entries: number;
  /** Ids whose reason is still to be filled in. */
  unexplained: string[];
}

/**
 * The file for a run (--write-expect): an entry for every case that did not pass. Reasons and
 * agents come from the entries this run was checked against, where the outcome is the same; the
 * others are left empty for a person to fill in (the next run refuses an entry without one).
 * Entries for other agents and for cases this run did not select are kept as they were.
 */
export function expectationsFor(records: readonly CaseRecord[], agent: string, previous: Expectations = new Map()): Map<string, { entries: ExpectationEntry[]; comment?: string }> {
  const out = new Map<string, { entries: ExpectationEntry[]; comment?: string }>();
  const ran = new Map(records.map((r) => [r.id, r]));
  for (const [id, entries] of previous) {
    const mine = ran.has(id) ? entryFor(previous, id, agent) : undefined;
    const kept = entries.filter((e) => e !== mine);
    if (kept.length) out.set(id, { entries: kept });
  }
  for (const r of records) {
    if (r.outcome === 'pass') continue;
    const before = entryFor(previous, r.id, agent);
    const reason = before?.outcome === r.outcome ? before.reason : '';
    const entry: ExpectationEntry = { outcome: r.outcome, reason, ...(before?.agent && { agent: before.agent }) };
    const failure = r.failures[0];
    const why = failure ? `${failure.check}: expected ${brief(failure.expected, 60)}, got ${brief(failure.actual, 60)}` : brief(r.reason ?? '', 120);
    const slot = out.get(r.id) ?? { entries: [] };
    slot.entries.push(entry);
    slot.comment = `${r.severity} ${r.title} -- ${r.outcome}${why ? `: ${why}` : ''}`;
    out.set(r.id, slot);
  }
  return new Map([...out].sort(([a], [b]) => compareIds(a, b)));
}

export async function writeExpectations(file: string, records: readonly CaseRecord[], run: { agent: string; target: string }, previous?: Expectations): Promise<WrittenExpectations> {
  const chosen = expectationsFor(records, run.agent, previous);
  const count = [...chosen.values()].reduce((n, s) => n + s.entries.length, 0);
  const unexplained = [...chosen].filter(([, s]) => s.entries.some((e) => !e.reason)).map(([id]) => id);
  let text: string;
  if (extname(file) === '.json') {
    const cases = Object.fromEntries([...chosen].map(([id, s]) => [id, s.entries.length === 1 ? s.entries[0] : s.entries]));
    text = `${JSON.stringify({ version: FORMAT_VERSION, cases }, null, 2)}\n`;
  } else {
    const header = [
      '# dhi conform --expect: the known departures of an implementation from the specification.',
      '# A run passes when every case listed here ends with its outcome and every other case passes;',
      '# a new failure fails it, and so does a listed case that passes (remove its entry then).',
      '# Each entry needs a one-line reason; `agent: NAME` limits an entry to runs with --agent NAME.',
      `# Written by dhi conform --write-expect from a run of ${run.agent} against ${run.target}, ${new Date().toISOString()}.`,
    ];
    const body = [...chosen].flatMap(([id, s]) => entryLines(id, s.entries, s.comment ?? 'kept from the file this run was checked against'));
    text = `${[...header, `version: ${FORMAT_VERSION}`, count ? 'cases:' : 'cases: {}', ...body.map((l) => `  ${l}`)].join('\n')}\n`;
  }
  await writeFile(file, text);
  return { file, entries: count, unexplained };
}
