// JUnit XML for CI systems: one testsuite per run, one testcase per case.
import type { CaseRecord } from '../case.js';
import type { RunReport } from './json.js';
import { needsRepro, reproScript } from './repro.js';

export function escapeXml(text: string): string {
  // Characters XML 1.0 cannot carry at all are dropped.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);
}

function failureText(record: CaseRecord): string {
  return record.failures
    .map((f) => `[${f.severity}] ${f.check}${f.message ? ` (${f.message})` : ''}\n  expected: ${JSON.stringify(f.expected)}\n  actual:   ${JSON.stringify(f.actual)}`)
    .join('\n');
}

/**
 * A known departure (--expect) is a skipped testcase whose message gives the entry's reason, as
 * pytest writes a strict xfail: dashboards (GitLab, Jenkins, GitHub test reporters) count skips
 * apart and keep the build green, and show the message, where a pass with a property would be
 * counted as conformance and its property shown by almost none of them. A listed case that did
 * not end as listed (an unexpected pass included) is a failure of type UNEXPECTED_<outcome>.
 */
function expectedCase(open: string, out: string, record: CaseRecord): string | undefined {
  const { expected } = record;
  if (!expected) return undefined;
  if (expected.held) {
    const details = record.failures.length ? `\n      <system-out>${escapeXml(failureText(record))}</system-out>` : '';
    return `${open}>\n      <skipped type="EXPECTED_${expected.outcome.toUpperCase()}" message="${escapeXml(`expected ${expected.outcome} (known departure): ${expected.reason}`)}"/>${details}\n    </testcase>`;
  }
  const advice = record.outcome === 'pass' ? 'passed: remove its entry from the expectations file' : `ended ${record.outcome}: change its entry`;
  const message = escapeXml(`the expectations file says ${expected.outcome} (${expected.reason}), but the case ${advice}`);
  return `${open}>\n      <failure type="UNEXPECTED_${record.outcome.toUpperCase()}" message="${message}">${escapeXml(failureText(record))}</failure>${out}\n    </testcase>`;
}

function testcase(run: RunReport, record: CaseRecord): string {
  const name = escapeXml(`${record.id} [${record.severity}] ${record.title}`);
  const open = `    <testcase classname="${escapeXml(`conformance.${run.agent}`)}" name="${name}" time="${(record.durationMs / 1000).toFixed(3)}"`;
  // The script that reproduces a failure or an error (set-up, the case's requests, clean-up).
  const out = needsRepro(record) ? `\n      <system-out>${escapeXml(reproScript(run, record))}</system-out>` : '';
  const known = expectedCase(open, out, record);
  if (known) return known;
  switch (record.outcome) {
    case 'pass':
      return `${open}/>`;
    case 'skipped':
      // A MUST case that did not run fails the run (unless --allow-skips): CI must count it so.
      if (record.severity === 'MUST' && !run.allowSkips) {
        return `${open}>\n      <failure message="${escapeXml(`MUST case did not run: ${record.reason ?? ''}`)}" type="NOT_RUN"/>\n    </testcase>`;
      }
      return `${open}>\n      <skipped message="${escapeXml(record.reason ?? '')}"/>\n    </testcase>`;
    case 'error':
      return `${open}>\n      <error message="${escapeXml(record.reason ?? 'harness error')}"/>${out}\n    </testcase>`;
    case 'fail': {
      const first = record.failures[0];
      const message = escapeXml(`${record.failedSeverity}: ${first.check}${first.message ? ` - ${first.message}` : ''}`);
      return `${open}>\n      <failure message="${message}" type="${record.failedSeverity}">${escapeXml(failureText(record))}</failure>${out}\n    </testcase>`;
    }
  }
}

/** The suite's counts are those of the elements written, so that they always agree. */
const countOf = (cases: string[], element: string) => cases.filter((c) => c.includes(`\n      <${element} `)).length;

export function junitXml(runs: RunReport[]): string {
  const suites = runs.map((run) => {
    const c = run.counts;
    const cases = run.cases.map((r) => testcase(run, r));
    const head = `  <testsuite name="${escapeXml(`dhi conform: ${run.agent}`)}" tests="${cases.length}" failures="${countOf(cases, 'failure')}" errors="${countOf(cases, 'error')}" skipped="${countOf(cases, 'skipped')}" time="${(run.durationMs / 1000).toFixed(3)}" timestamp="${escapeXml(run.startedAt)}">`;
    const expectations = run.expectations
      ? `\n      <property name="expectations" value="${escapeXml(run.expectations.file)}"/>\n      <property name="expectedDepartures" value="${c.expected ?? 0}"/>\n      <property name="unexpected" value="${c.unexpected ?? 0}"/>`
      : '';
    const props = `    <properties>\n      <property name="target" value="${escapeXml(run.target)}"/>\n      <property name="strict" value="${run.strict}"/>\n      <property name="mustNotRun" value="${c.mustNotRun ?? 0}"/>\n      <property name="allowSkips" value="${run.allowSkips ?? false}"/>${expectations}\n    </properties>`;
    return [head, props, ...cases, '  </testsuite>'].join('\n');
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="dhi conform">\n${suites.join('\n')}\n</testsuites>\n`;
}
