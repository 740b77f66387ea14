// Live console lines, one per case as it finishes, and the summary at the end.
import type { CaseRecord } from '../case.js';
import type { Counts, RunReport } from './json.js';
import { needsRepro } from './repro.js';

const LABEL: Record<CaseRecord['outcome'], string> = { pass: 'PASS', fail: 'FAIL', skipped: 'SKIP', error: 'ERR ' };

/** Known departures (--expect) as pytest says them: XFAIL, XSKIP; a listed case that passed is XPASS. */
function label(record: CaseRecord): string {
  const { expected, outcome } = record;
  if (!expected) return LABEL[outcome];
  if (!expected.held) return outcome === 'pass' ? 'XPASS' : LABEL[outcome];
  return outcome === 'skipped' ? 'XSKIP' : 'XFAIL';
}

/** `sharedReason`: a skip reason already printed once (e.g. no control API), left off the line. */
export function caseLine(record: CaseRecord, sharedReason?: string): string {
  const weight = record.outcome === 'fail' && record.failedSeverity !== record.severity ? `${record.severity}>${record.failedSeverity}` : record.severity;
  const head = `${label(record)} ${weight.padEnd(6)} ${record.id.padEnd(7)} ${record.title} (${record.durationMs} ms)`;
  const { expected } = record;
  if (expected?.held) return `${head}\n       - expected ${expected.outcome}: ${brief(expected.reason, REASON_LIMIT)}`;
  const surprise = expected ? [`       - UNEXPECTED: the expectations file says ${expected.outcome} (${brief(expected.reason, REASON_LIMIT)})${record.outcome === 'pass' ? '; remove its entry' : ''}`] : [];
  const details = record.outcome === 'fail'
    ? record.failures.map((f) => `       - [${f.severity}] ${f.check}${f.message ? `: ${f.message}` : ''}; expected ${brief(f.expected)}, got ${brief(f.actual)}`)
    : record.reason && !(sharedReason && record.reason.includes(sharedReason))
      ? [`       - ${brief(record.reason, REASON_LIMIT)}`]
      : [];
  return [head, ...surprise, ...details].join('\n');
}

/** Console lines stay lines: a body (an HTML page from a server that is not this API) is cut. */
const VALUE_LIMIT = 120;
const REASON_LIMIT = 300;

export function brief(value: unknown, limit = VALUE_LIMIT): string {
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  if (raw === undefined) return 'undefined';
  const text = raw.replace(/\s+/g, ' ').trim();
  return text.length > limit ? `${text.slice(0, limit)}... [cut: the report's transcript has the body]` : text;
}

/** The outcome counts as a reader says them (the demo's index page uses it too). */
export function countsInWords(counts: Counts): string {
  const expected = counts.expected ? `, ${counts.expected} expected (known departures)` : '';
  const unexpected = counts.unexpected ? `, ${counts.unexpected} not as expected` : '';
  return `${counts.pass} passed, ${counts.fail} failed (${counts.mustFailures} MUST, ${counts.shouldFailures} SHOULD), ${counts.skipped} skipped, ${counts.error} errors${expected}${unexpected}`;
}

export function summaryLines(run: RunReport, reportDir: string): string[] {
  const { agent, counts, durationMs, exitCode } = run;
  const notRun = (run.mustNotRun ?? []).map((n) => `  - ${n.ids.length} MUST: ${brief(n.reason, REASON_LIMIT)} (${n.ids.join(', ')})`);
  const verdict = run.allowSkips ? 'accepted with --allow-skips' : 'this fails the run; --allow-skips accepts it';
  return [
    '',
    `${agent}: ${counts.total} cases in ${(durationMs / 1000).toFixed(1)} s: ${countsInWords(counts)}`,
    ...(notRun.length ? [`${counts.mustNotRun} MUST cases did not run (${verdict}):`, ...notRun] : []),
    ...(run.cases.some(needsRepro) ? [`reproduce a failure: sh ${reportDir}/repro/<id>.sh (it logs in for $DHI_JWT and re-creates the case's devices)`] : []),
    `reports: ${reportDir}/index.html, index.json, junit.xml; exit code ${exitCode}`,
  ];
}
