// Live console lines, one per case as it finishes, and the summary at the end.
import type { CaseRecord } from '../case.js';
import type { RunReport } from './json.js';

const LABEL: Record<CaseRecord['outcome'], string> = { pass: 'PASS', fail: 'FAIL', skipped: 'SKIP', error: 'ERR ' };

/** `sharedReason`: a skip reason already printed once (e.g. no control API), left off the line. */
export function caseLine(record: CaseRecord, sharedReason?: string): string {
  const weight = record.outcome === 'fail' && record.failedSeverity !== record.severity ? `${record.severity}>${record.failedSeverity}` : record.severity;
  const head = `${LABEL[record.outcome]} ${weight.padEnd(6)} ${record.id.padEnd(7)} ${record.title} (${record.durationMs} ms)`;
  const details = record.outcome === 'fail'
    ? record.failures.map((f) => `       - [${f.severity}] ${f.check}${f.message ? `: ${f.message}` : ''}; expected ${brief(f.expected)}, got ${brief(f.actual)}`)
    : record.reason && !(sharedReason && record.reason.includes(sharedReason))
      ? [`       - ${record.reason}`]
      : [];
  return [head, ...details].join('\n');
}

function brief(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? 'undefined' : text.length > 160 ? `${text.slice(0, 160)}...` : text;
}

export function summaryLines(run: RunReport, reportDir: string): string[] {
  const { agent, counts, durationMs, exitCode } = run;
  const notRun = (run.mustNotRun ?? []).map((n) => `  - ${n.ids.length} MUST: ${brief(n.reason)} (${n.ids.join(', ')})`);
  const verdict = run.allowSkips ? 'accepted with --allow-skips' : 'this fails the run; --allow-skips accepts it';
  return [
    '',
    `${agent}: ${counts.total} cases in ${(durationMs / 1000).toFixed(1)} s: ${counts.pass} passed, ${counts.fail} failed (${counts.mustFailures} MUST, ${counts.shouldFailures} SHOULD), ${counts.skipped} skipped, ${counts.error} errors`,
    ...(notRun.length ? [`${counts.mustNotRun} MUST cases did not run (${verdict}):`, ...notRun] : []),
    `reports: ${reportDir}/index.html, index.json, junit.xml; exit code ${exitCode}`,
  ];
}
