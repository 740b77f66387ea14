// The README's "In CI" section, followed step by step from a packed install. The implementation
// under test is a reference server behind the fault-injecting proxy, with one known departure
// (invalid bodies answered 500, as ThingsBoard does); a regression is a second fault switched on.
// The repository of the recipes is a temporary folder holding the packed tarball; the expectations
// file is written and its reasons filled in by the README's own commands ($EDITOR is a sed script).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startFaultProxy, switchableFaults, type Fault, type FaultProxy } from '../../conformance/test/fault-proxy.js';
import { faults } from '../../conformance/test/faults.js';
import { startServer, type RunningServer } from '../../reference-server/server.js';
import { runAction } from './action-runner.js';
import { collect, ENV, NPM_SHIM, pack, ROOT, STEP_TIMEOUT_MS } from './packed.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const recipe = (name: string): string => {
  const block = new RegExp(`<!-- recipe: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(README)?.[1];
  if (!block) throw new Error(`README.md has no <!-- recipe: ${name} --> block`);
  return block;
};

let work: string;
let repo: string;
let server: RunningServer;
let proxy: FaultProxy;
const on = new Set<Fault>();
const [knownDeparture, regression] = ['an invalid body answered 500', "form c's ts ignored"].map((name) => faults().find((f) => f.name === name)!);
const switchable = switchableFaults(on);

/** A recipe's shell lines, run in the repository with TARGET_URL set (npm installs from the cache). */
function shell(script: string, env: Record<string, string> = {}) {
  return collect(spawn('bash', ['-c', `${NPM_SHIM}\n${script}`], { cwd: repo, env: { ...ENV, TARGET_URL: proxy.url, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: STEP_TIMEOUT_MS }));
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'dhi-in-ci-'));
  repo = join(work, 'repo');
  mkdirSync(join(repo, 'conformance'), { recursive: true });
  const { tarball } = await pack(work);
  // The recipes name the tarball ./dhi-0.1.0.tgz: it sits in the repository.
  copyFileSync(tarball, join(repo, basename(tarball)));
  server = await startServer({ host: '127.0.0.1', port: 0, httpsPort: -1, db: ':memory:', logLevel: 'silent' });
  proxy = await startFaultProxy(server.httpUrl, switchable);
  on.add(knownDeparture);
  // The expectations file, as the README says: write it from a run, fill in each reason.
  const installed = await shell(recipe('shell').split('\n')[0]);
  expect(installed.code, installed.stderr).toBe(0);
  const editor = join(work, 'editor.sh');
  writeFileSync(editor, `#!/bin/sh\nsed -i 's/reason: ""/reason: "our gateway answers 500 for a body it cannot parse"/' "$1"\n`, { mode: 0o755 });
  const [write, edit] = recipe('expect').split('\n');
  const written = await shell(write);
  expect(written.code, written.stdout + written.stderr).toBe(1);
  expect(written.stdout).toMatch(/wrote \d+ entries to conformance\/expect\.yaml: fill in the reason of 1\.2\.1, 1\.2\.2/);
  expect((await shell(edit, { EDITOR: editor })).code).toBe(0);
}, 3 * STEP_TIMEOUT_MS);

afterAll(async () => {
  await proxy?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the In CI recipes of the README, from a packed install', { timeout: 2 * STEP_TIMEOUT_MS }, () => {
  it('GitHub: the action passes with the known departures, writes the step summary and uploads the reports; a regression fails it with one ::error per failed MUST case', async () => {
    const workflow = parse(recipe('github')) as { jobs: Record<string, { steps: { uses?: string; with?: Record<string, string> }[] }> };
    const step = Object.values(workflow.jobs)[0].steps.find((s) => s.uses?.startsWith('<owner>/dhi@'))!;
    // The workflow's target is its own server's; the password a secret.
    const inputs = { ...step.with, target: proxy.url, password: 'tenant' };
    const actionRun = async (name: string) => {
      const scratch = join(work, name);
      mkdirSync(scratch);
      const summary = join(scratch, 'summary.md');
      writeFileSync(summary, '');
      const env = { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: repo, GITHUB_ACTION_PATH: ROOT, RUNNER_TEMP: join(scratch, 'runner-temp'), GITHUB_STEP_SUMMARY: summary, GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/gateway', GITHUB_RUN_ID: '42' };
      const result = await runAction(join(ROOT, 'action.yml'), inputs, { env, scratch, uses: (s): Record<string, string> => (s.uses?.startsWith('actions/upload-artifact') ? { 'artifact-url': 'https://github.com/acme/gateway/actions/runs/42/artifacts/7' } : {}) });
      const conform = result.steps.find((s) => s.name === 'Run dhi conform')!;
      return { result, summary: readFileSync(summary, 'utf8'), conform: { stdout: conform.stdout ?? '', stderr: conform.stderr ?? '' } };
    };

    const passed = await actionRun('passed');
    expect(passed.result.failed, passed.conform.stdout + passed.conform.stderr).toBe(false);
    expect(passed.result.steps.map((s) => [s.name, s.ran || Boolean(s.uses)])).toEqual([
      ['Set up Node.js', true], ['Install dhi', true], ['Run dhi conform', true], ['Upload the conformance report', true], ['Link the report from the job summary', true],
    ]);
    expect(passed.result.steps[0]).toMatchObject({ uses: 'actions/setup-node@v4', with: { 'node-version': '20' } });
    const reportDir = join(repo, 'dhi-reports', 'conformance');
    expect(passed.result.outputs).toEqual({ 'exit-code': '0', 'report-dir': reportDir });
    expect(passed.result.steps[3].with).toEqual({ name: 'dhi-conformance-report', path: reportDir, 'if-no-files-found': 'ignore' });
    expect(existsSync(join(reportDir, 'index.html'))).toBe(true);
    expect(passed.summary).toMatch(/^## dhi conform: 127\.0\.0\.1:\d+ ✅ passed$/m);
    expect(passed.summary).toMatch(/<details><summary>Known departures \(\d+\)<\/summary>/);
    expect(passed.summary).toContain('| 1.2.1 | MUST | malformed JSON is 400 | our gateway answers 500 for a body it cannot parse |');
    expect(passed.summary).toContain('[this workflow run](https://github.com/acme/gateway/actions/runs/42#artifacts)');
    expect(passed.summary).toContain('Download the report: [dhi-conformance-report](https://github.com/acme/gateway/actions/runs/42/artifacts/7)');
    expect(passed.conform.stdout).not.toMatch(/^::error/m);

    on.add(regression);
    try {
      const failed = await actionRun('failed');
      expect(failed.result.failed).toBe(true);
      expect(failed.result.outputs['exit-code']).toBe('1');
      expect(failed.result.steps[3].uses, 'the reports are uploaded after a failure').toBe('actions/upload-artifact@v4');
      expect(failed.summary).toMatch(/^## dhi conform: 127\.0\.0\.1:\d+ ❌ failed$/m);
      expect(failed.summary).toMatch(/^\| 1\.1\.4 \| MUST \| form \(c\): the supplied ts is used \| .+ \| .+ \|$/m);
      expect(failed.summary).toContain('Expectations `');
      expect(failed.summary).toContain('to bring it up to date: add 1.1.4');
      const errors = failed.conform.stdout.split('\n').filter((l) => l.startsWith('::error'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^::error title=dhi conform 1\.1\.4 \[MUST\] form \(c\)%3A the supplied ts is used::.*%0ARequirement: /);
    } finally {
      on.delete(regression);
    }
  });

  it('GitLab: the job script passes and its JUnit report shows the known departures as skipped with their reason; a regression fails it', async () => {
    const job = Object.values(parse(recipe('gitlab')) as Record<string, { script: string[]; artifacts: { paths: string[]; reports: { junit: string } } }>)[0];
    const script = job.script.join('\n');
    const passed = await shell(`set -e\n${script}`);
    expect(passed.code, passed.stdout + passed.stderr).toBe(0);
    const junit = readFileSync(join(repo, job.artifacts.reports.junit), 'utf8');
    expect(junit).toContain('<skipped type="EXPECTED_FAIL" message="expected fail (known departure): our gateway answers 500 for a body it cannot parse"/>');
    expect(junit).toMatch(/failures="0" errors="0"/);
    for (const path of job.artifacts.paths) expect(existsSync(join(repo, path, 'index.html'))).toBe(true);

    on.add(regression);
    try {
      const failed = await shell(`set -e\n${script}`);
      expect(failed.code).toBe(1);
      expect(readFileSync(join(repo, job.artifacts.reports.junit), 'utf8')).toMatch(/name="1\.1\.4 \[MUST\][^"]*"[^>]*>\n {6}<failure message="MUST: /);
    } finally {
      on.delete(regression);
    }
  });

  it('plain shell: exit 0 and "conformant" with the known departures; exit 1 and "regression" with a new failure; exit 3 for an unreachable target', async () => {
    const passed = await shell(recipe('shell'));
    expect(passed.code, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/^conformant: every case passed or departed as conformance\/expect\.yaml says$/m);
    on.add(regression);
    try {
      const failed = await shell(recipe('shell'));
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/^regression: a new failure, or a listed case that passes; see reports\/conformance\/index\.html$/m);
    } finally {
      on.delete(regression);
    }
    const unreachable = await shell(recipe('shell'), { TARGET_URL: 'http://127.0.0.1:1' });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stdout).toMatch(/^could not run: http:\/\/127\.0\.0\.1:1 is unreachable$/m);
  });
});
