// Under GitHub Actions (GITHUB_ACTIONS=true): a markdown summary of the run for the job's page
// ($GITHUB_STEP_SUMMARY) and one `::error` workflow command per case that fails the run, which
// GitHub shows as an annotation on the run and the pull request.
import { blocksRun, expectedDeparture, type CaseRecord } from '../case.js';
import { brief, countsInWords } from './console.js';
import type { RunReport } from './json.js';

export interface GithubContext {
  /** The file GitHub renders on the job's summary page (appended to). */
  stepSummary?: string;
  /** The workflow run's page, where the report artifact is listed. */
  runUrl?: string;
}

/** The context from the variables GitHub sets, or undefined outside Actions. */
export function githubFromEnv(env: Record<string, string | undefined>): GithubContext | undefined {
  if (env.GITHUB_ACTIONS !== 'true') return undefined;
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = env;
  return {
    ...(env.GITHUB_STEP_SUMMARY && { stepSummary: env.GITHUB_STEP_SUMMARY }),
    ...(server && repo && run && { runUrl: `${server}/${repo}/actions/runs/${run}` }),
  };
}

/** Workflow command escaping: data escapes %, CR and LF; properties also : and ,. */
const data = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (text: string) => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** What went wrong, in one line: the first failure, the unmet expectation, or the reason. */
function whatFailed(r: CaseRecord): string {
  if (r.expected && !r.expected.held) {
    return `the expectations file says ${r.expected.outcome} (${r.expected.reason}), but the case ended ${r.outcome}${r.outcome === 'pass' ? ': remove its entry' : ''}`;
  }
  const f = r.failures[0];
  if (r.outcome === 'fail' && f) return `${f.check}${f.message ? ` (${f.message})` : ''}: expected ${brief(f.expected)}, got ${brief(f.actual)}`;
  return r.outcome === 'skipped' ? `did not run: ${r.reason ?? ''}` : `harness error: ${r.reason ?? ''}`;
}

const failing = (run: RunReport) => run.cases.filter((r) => blocksRun(r, run.strict, run.allowSkips));

/** One `::error` per case that fails the run (MUST failures; SHOULD too under --strict). */
export function githubAnnotations(run: RunReport): string[] {
  return failing(run).map((r) => `::error title=${property(`dhi conform ${r.id} [${r.severity}] ${r.title}`)}::${data(`${whatFailed(r)}\nRequirement: ${r.requirement}`)}`);
}

/** Markdown table cells stay one line and cannot close the cell. */
const cell = (text: string) => brief(text, 200).replace(/\|/g, '\\|');

export function githubSummary(run: RunReport, reportDir: string, context: GithubContext): string {
  const failed = failing(run);
  const known = run.cases.filter(expectedDeparture);
  const verdict = run.exitCode === 0 ? '✅ passed' : '❌ failed';
  const where = context.runUrl ? `in the report artifact of [this workflow run](${context.runUrl}#artifacts)` : `in ${reportDir}`;
  const lines = [
    `## dhi conform: ${run.agent} ${verdict}`,
    '',
    `${run.counts.total} cases against \`${run.target}\` in ${(run.durationMs / 1000).toFixed(1)} s: ${countsInWords(run.counts)}. Exit code ${run.exitCode}.`,
    '',
    '| passed | failed | MUST failed | SHOULD failed | skipped | errors | expected | unexpected |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${run.counts.pass} | ${run.counts.fail} | ${run.counts.mustFailures} | ${run.counts.shouldFailures} | ${run.counts.skipped} | ${run.counts.error} | ${run.counts.expected ?? 0} | ${run.counts.unexpected ?? 0} |`,
  ];
  if (failed.length) {
    lines.push('', `### Cases that fail the run (${failed.length})`, '', '| case | severity | title | requirement | what failed |', '|---|---|---|---|---|');
    for (const r of failed) lines.push(`| ${r.id} | ${r.failedSeverity ?? r.severity} | ${cell(r.title)} | ${cell(r.requirement)} | ${cell(whatFailed(r))} |`);
  }
  if (run.expectations) {
    const { file, add, change, remove } = run.expectations;
    const todo = [add.length && `add ${add.join(', ')}`, change.length && `change ${change.join(', ')}`, remove.length && `remove ${remove.join(', ')} (they pass now)`].filter(Boolean);
    lines.push('', `Expectations \`${file}\`: ${known.length} known departures held${todo.length ? `; to bring it up to date: ${todo.join('; ')}` : '.'}`);
  }
  if (known.length) {
    lines.push('', `<details><summary>Known departures (${known.length})</summary>`, '', '| case | severity | title | reason |', '|---|---|---|---|');
    for (const r of known) lines.push(`| ${r.id} | ${r.severity} | ${cell(r.title)} | ${cell(r.expected!.reason)} |`);
    lines.push('', '</details>');
  }
  lines.push('', `The HTML report (\`index.html\`: every case with its transcript, and a script that reproduces each failure) is ${where}, next to \`junit.xml\` and \`index.json\`.`, '');
  return `${lines.join('\n')}\n`;
}
