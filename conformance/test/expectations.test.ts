// Expectations (--expect, --write-expect): the file's rules, what they do to the exit code and the
// reports, and the round trip a team goes through, with real processes: `dhi conform` against a
// reference server behind the fault-injecting proxy, whose faults are switched between runs.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../reference-server/server.js';
import type { CaseRecord, Outcome } from '../case.js';
import type { Severity } from '../verdict.js';
import { exitCodeOf } from '../cli.js';
import { ExpectationsError, markExpected, expectationsFor, loadExpectations, parseExpectations, verdictOf, writeExpectations } from '../expectations.js';
import { countRecords, type RunReport } from '../report/json.js';
import { reportHtml } from '../report/html.js';
import { junitXml } from '../report/junit.js';
import { startFaultProxy, switchableFaults, type Fault, type FaultProxy } from './fault-proxy.js';
import { faults } from './faults.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const KNOWN = new Set(['1.2.1', '1.2.2', '1.1.4', '4.1.1']);

function record(id: string, severity: Severity, outcome: Outcome): CaseRecord {
  const failures = outcome === 'fail' ? [{ check: 'statusIs', expected: 400, actual: 500, severity }] : [];
  return { id, title: `case ${id}`, requirement: 'a rule', severity, outcome, ...(outcome === 'fail' && { failedSeverity: severity }), failures, durationMs: 1, transcript: [] };
}

const problemsOf = (document: unknown): string[] => {
  try {
    parseExpectations('x.yaml', document, KNOWN);
    return [];
  } catch (error) {
    return (error as ExpectationsError).problems;
  }
};

describe('an expectations file', () => {
  it('needs a one-line reason, a known outcome and known keys in every entry, and names each problem', () => {
    const problems = problemsOf({
      cases: {
        '1.2.1': { outcome: 'fail', reason: '' },
        '1.2.2': { outcome: 'pass', reason: 'x' },
        '1.1.4': { outcome: 'fail', reason: 'two\nlines', reasn: 'typo' },
      },
    });
    expect(problems).toEqual([
      '1.2.1: the reason is missing: say in one line why this implementation departs here',
      '1.2.2: outcome must be one of fail, error, skipped, got "pass" (a case expected to pass needs no entry)',
      '1.1.4: unknown key "reasn" (an entry has outcome, reason and optionally agent)',
      '1.1.4: the reason must be one line',
    ]);
  });

  it('names an id that no case has as such, since ids are never reused', () => {
    expect(problemsOf({ cases: { '1.2.99': { outcome: 'fail', reason: 'r' } } })).toEqual([
      '1.2.99: no case has this id (dhi conform --list --robustness prints every id; ids are never reused, so this is a typo or a file from a newer dhi)',
    ]);
    expect(problemsOf({ version: 2, cases: {}, extra: 1 })).toEqual(['unknown top-level key "extra" (expected version and cases)', 'version 2 is not one this dhi reads (1)']);
    expect(problemsOf([])).toEqual(['expected a mapping with "cases": {<case id>: {outcome, reason}}']);
  });

  it('takes one entry per agent for an id, the agent-less one for every other agent', () => {
    const expectations = parseExpectations('x.yaml', { cases: { '1.2.1': [{ outcome: 'fail', reason: 'tb answers 500', agent: 'tb' }, { outcome: 'error', reason: 'elsewhere' }] } }, KNOWN);
    const [tb, other] = [[record('1.2.1', 'MUST', 'fail')], [record('1.2.1', 'MUST', 'fail')]];
    markExpected(tb[0], expectations, 'tb');
    markExpected(other[0], expectations, 'other');
    expect(tb[0].expected).toEqual({ outcome: 'fail', reason: 'tb answers 500', agent: 'tb', held: true });
    expect(other[0].expected).toEqual({ outcome: 'error', reason: 'elsewhere', held: false });
    expect(problemsOf({ cases: { '1.2.1': [{ outcome: 'fail', reason: 'a' }, { outcome: 'fail', reason: 'b' }] } })).toEqual(['1.2.1: two entries for every agent']);
  });

  it('reads YAML and JSON, and refuses JSON with an id twice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dhi-expect-'));
    try {
      await writeFile(join(dir, 'a.yaml'), 'cases:\n  1.2.1: {outcome: fail, reason: "500 for malformed JSON"}\n');
      await writeFile(join(dir, 'a.json'), '{"cases": {"1.2.1": {"outcome": "fail", "reason": "r"}, "1.2.1": {"outcome": "error", "reason": "r"}}}');
      expect((await loadExpectations(join(dir, 'a.yaml'), KNOWN)).get('1.2.1')).toEqual([{ outcome: 'fail', reason: '500 for malformed JSON' }]);
      await expect(loadExpectations(join(dir, 'a.json'), KNOWN)).rejects.toThrow(/not valid JSON: Map keys must be unique/);
      await expect(loadExpectations(join(dir, 'missing.yaml'), KNOWN)).rejects.toThrow(/cannot read it/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a run checked against expectations', () => {
  const expectations = parseExpectations('x.yaml', { cases: { '1.2.1': { outcome: 'fail', reason: 'known 500' }, '4.1.1': { outcome: 'fail', reason: 'known late' } } }, KNOWN);

  it('passes when every listed case ends as listed, and counts those apart from failures', () => {
    const records = [record('1.2.1', 'MUST', 'fail'), record('4.1.1', 'MUST', 'fail'), record('1.1.4', 'MUST', 'pass')];
    for (const r of records) markExpected(r, expectations, 'a');
    expect(exitCodeOf(records, true)).toBe(0);
    expect(countRecords(records)).toMatchObject({ total: 3, pass: 1, fail: 0, mustFailures: 0, expected: 2, unexpected: 0 });
  });

  it('fails on a new failure and on a listed case that passes, and says which entries to add and remove', () => {
    const records = [record('1.2.1', 'MUST', 'pass'), record('4.1.1', 'MUST', 'error'), record('1.1.4', 'MUST', 'fail'), record('1.2.2', 'SHOULD', 'fail')];
    for (const r of records) markExpected(r, expectations, 'a');
    expect(exitCodeOf(records, false)).toBe(1);
    expect(verdictOf('x.yaml', records, (r) => r.outcome === 'fail' && r.severity === 'MUST')).toEqual({ file: 'x.yaml', held: [], add: ['1.1.4'], change: ['4.1.1'], remove: ['1.2.1'] });
    expect(countRecords(records)).toMatchObject({ pass: 1, fail: 2, error: 1, expected: 0, unexpected: 2 });
  });

  it('writes a known departure to JUnit as skipped with its reason, and an unexpected pass as a failure', () => {
    const records = [record('1.2.1', 'MUST', 'fail'), record('4.1.1', 'MUST', 'pass')];
    for (const r of records) markExpected(r, expectations, 'a');
    const run: RunReport = { agent: 'a', target: 'http://a', controlUrl: 'http://a', startedAt: '2026-01-01T00:00:00Z', durationMs: 1, strict: false, exitCode: 1, counts: countRecords(records), cases: records };
    const xml = junitXml([run]);
    expect(xml).toMatch(/tests="2" failures="1" errors="0" skipped="1"/);
    expect(xml).toContain('<skipped type="EXPECTED_FAIL" message="expected fail (known departure): known 500"/>');
    expect(xml).toContain('<failure type="UNEXPECTED_PASS" message="the expectations file says fail (known late), but the case passed: remove its entry from the expectations file">');
    const html = reportHtml([{ ...run, expectations: { file: 'x.yaml', held: ['1.2.1'], add: [], change: [], remove: ['4.1.1'] } }]);
    expect(html).toContain('<details class="case" id="case-1.2.1" data-outcome="expected"');
    expect(html).toContain('<p class="expectation">Expected fail (known departure): known 500</p>');
    expect(html).toMatch(/id="case-4\.1\.1" data-outcome="pass"[^>]*>\n<summary><span class="badge pass">pass<\/span> <span class="badge unexpected">unexpected<\/span>/);
    expect(html).toContain('remove (these pass now): <a href="#case-4.1.1">4.1.1</a>');
    expect(html).toContain('<label><input type="checkbox" value="expected" checked> expected</label>');
  });

  it('is written with every case that did not pass, keeping the reasons that still hold and entries for other agents', async () => {
    const previous = parseExpectations('x.yaml', { cases: { '1.2.1': { outcome: 'fail', reason: 'known 500' }, '1.1.4': { outcome: 'fail', reason: 'theirs', agent: 'b' } } }, KNOWN);
    const records = [record('1.2.1', 'MUST', 'fail'), record('1.2.2', 'MUST', 'error'), record('4.1.1', 'MUST', 'pass')];
    const chosen = expectationsFor(records, 'a', previous);
    expect([...chosen].map(([id, s]) => [id, s.entries])).toEqual([
      ['1.1.4', [{ outcome: 'fail', reason: 'theirs', agent: 'b' }]],
      ['1.2.1', [{ outcome: 'fail', reason: 'known 500' }]],
      ['1.2.2', [{ outcome: 'error', reason: '' }]],
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'dhi-expect-'));
    try {
      for (const name of ['e.yaml', 'e.json']) {
        const written = await writeExpectations(join(dir, name), records, { agent: 'a', target: 'http://a' }, previous);
        expect(written).toEqual({ file: join(dir, name), entries: 3, unexplained: ['1.2.2'] });
        await expect(loadExpectations(join(dir, name), KNOWN)).rejects.toThrow(/1\.2\.2: the reason is missing/);
      }
      expect(await readFile(join(dir, 'e.yaml'), 'utf8')).toMatch(/# MUST case 1\.2\.2 -- error\n {2}"1\.2\.2":\n {4}outcome: error\n {4}reason: ""\n/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

function dhi(...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/dhi.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('the expectations round trip of dhi conform', () => {
  let server: RunningServer;
  let proxy: FaultProxy;
  let dir: string;
  // The proxy applies the faults switched on at the time of each request.
  const on = new Set<Fault>();
  const [invalidBody500, tsIgnored] = ['an invalid body answered 500', "form c's ts ignored"].map((name) => faults().find((f) => f.name === name)!);
  const switchable = switchableFaults(on);

  beforeAll(async () => {
    server = await startServer({ host: '127.0.0.1', port: 0, httpsPort: -1, db: ':memory:', logLevel: 'silent' });
    proxy = await startFaultProxy(server.httpUrl, switchable);
    dir = await mkdtemp(join(tmpdir(), 'dhi-expect-run-'));
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the file, refuses it until each reason is filled in, fails on a regression and on an unexpected pass', async () => {
    const file = join(dir, 'expect.yaml');
    const conform = (...extra: string[]) => dhi('conform', '--target', proxy.url, '--cases', '1.1.4,1.2.1,1.2.2', '--report-dir', join(dir, 'reports'), ...extra);
    on.add(invalidBody500);

    const first = await conform('--write-expect', file);
    expect(first.code, first.out).toBe(1);
    expect(first.out).toContain(`wrote 2 entries to ${file}: fill in the reason of 1.2.1, 1.2.2`);

    const refused = await conform('--expect', file);
    expect(refused.code, refused.out).toBe(2);
    expect(refused.out).toContain('1.2.1: the reason is missing');
    expect(refused.out).toContain('1.2.2: the reason is missing');

    await writeFile(file, (await readFile(file, 'utf8')).replace(/reason: ""/g, 'reason: "our gateway answers 500 for a body it cannot parse"'));
    const held = await conform('--expect', file);
    expect(held.code, held.out).toBe(0);
    expect(held.out).toMatch(/^XFAIL MUST {3}1\.2\.1 /m);
    expect(held.out).toContain('2 known departures held, 0 new failures, 0 changed, 0 unexpected passes');

    on.add(tsIgnored);
    const regressed = await conform('--expect', file);
    expect(regressed.code, regressed.out).toBe(1);
    expect(regressed.out).toContain(`add to ${file} (then fill in each reason), or fix the implementation: 1.1.4`);

    on.delete(tsIgnored);
    expect((await conform('--expect', file)).code).toBe(0);

    on.delete(invalidBody500);
    const fixed = await conform('--expect', file);
    expect(fixed.code, fixed.out).toBe(1);
    expect(fixed.out).toMatch(/^XPASS MUST {3}1\.2\.1 /m);
    expect(fixed.out).toContain(`remove from ${file} (these cases pass now): 1.2.1, 1.2.2`);
    const junit = await readFile(join(dir, 'reports', 'junit.xml'), 'utf8');
    expect(junit).toMatch(/tests="3" failures="2" errors="0" skipped="0"/);

    await writeFile(join(dir, 'typo.yaml'), 'cases:\n  1.2.100: {outcome: fail, reason: r}\n');
    const typo = await conform('--expect', join(dir, 'typo.yaml'));
    expect(typo.code).toBe(2);
    expect(typo.out).toContain('1.2.100: no case has this id');
  }, 120_000);
});
