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

function testcase(run: RunReport, record: CaseRecord): string {
  const name = escapeXml(`${record.id} [${record.severity}] ${record.title}`);
  const open = `    <testcase classname="${escapeXml(`conformance.${run.agent}`)}" name="${name}" time="${(record.durationMs / 1000).toFixed(3)}"`;
  // The script that reproduces a failure or an error (set-up, the case's requests, clean-up).
  const out = needsRepro(record) ? `\n      <system-out>${escapeXml(reproScript(run, record))}</system-out>` : '';
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

export function junitXml(runs: RunReport[]): string {
  const suites = runs.map((run) => {
    const c = run.counts;
    const notRun = run.allowSkips ? 0 : (c.mustNotRun ?? 0);
    const head = `  <testsuite name="${escapeXml(`dhi conform: ${run.agent}`)}" tests="${c.total}" failures="${c.fail + notRun}" errors="${c.error}" skipped="${c.skipped - notRun}" time="${(run.durationMs / 1000).toFixed(3)}" timestamp="${escapeXml(run.startedAt)}">`;
    const props = `    <properties>\n      <property name="target" value="${escapeXml(run.target)}"/>\n      <property name="strict" value="${run.strict}"/>\n      <property name="mustNotRun" value="${c.mustNotRun ?? 0}"/>\n      <property name="allowSkips" value="${run.allowSkips ?? false}"/>\n    </properties>`;
    return [head, props, ...run.cases.map((r) => testcase(run, r)), '  </testsuite>'].join('\n');
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="dhi conform">\n${suites.join('\n')}\n</testsuites>\n`;
}
