import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseRecord } from '../case.js';
import { reportHtml } from '../report/html.js';
import { summaryLines } from '../report/console.js';
import { countRecords, mustNotRun, type ReportIndex, type RunReport } from '../report/json.js';
import { escapeXml, junitXml } from '../report/junit.js';
import { writeReports } from '../report/write.js';
import { launchBrowser } from '../../test/browser.js';

function record(id: string, outcome: CaseRecord['outcome'], severity: CaseRecord['severity'] = 'MUST'): CaseRecord {
  return {
    id,
    title: `title of ${id} <b>&</b>`,
    requirement: 'a requirement',
    severity,
    outcome,
    ...(outcome === 'fail' && { failedSeverity: severity }),
    failures: outcome === 'fail' ? [{ check: 'statusIs', expected: 400, actual: 500, severity, message: 'ThingsBoard answers 500 here' }] : [],
    ...(outcome === 'skipped' && { reason: 'needs the control API' }),
    durationMs: 12,
    transcript: [
      {
        channel: 'device',
        operationId: 'postTelemetry',
        startedAt: 0,
        durationMs: 3,
        request: { method: 'POST', url: 'http://127.0.0.1:1/api/v1/T/telemetry', headers: { 'content-type': 'application/json' }, body: '{"a":"</script>"}' },
        response: { status: 500, headers: {}, body: '' },
        curl: "curl -sS -i -X POST 'http://127.0.0.1:1/api/v1/T/telemetry'",
      },
    ],
  };
}

function run(agent: string, cases: CaseRecord[], allowSkips = false): RunReport {
  return { agent, target: `http://${agent}:8080`, controlUrl: `http://${agent}:8080`, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1500, strict: false, allowSkips, exitCode: 1, counts: countRecords(cases), mustNotRun: mustNotRun(cases), cases };
}

const dhiRun = run('dhi', [record('1.1.1', 'pass'), record('1.2.1', 'fail'), record('3.6.1', 'pass', 'SHOULD'), record('9.1.1', 'skipped')]);
const tbRun = run('thingsboard', [record('1.1.1', 'pass'), record('1.2.1', 'fail'), record('3.6.1', 'fail', 'SHOULD'), record('9.1.1', 'pass')]);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dhi-conform-report-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('reports', () => {
  it('count outcomes and MUST/SHOULD failures', () => {
    expect(tbRun.counts).toEqual({ pass: 2, fail: 2, skipped: 0, error: 0, total: 4, mustFailures: 1, shouldFailures: 1, mustNotRun: 0, expected: 0, unexpected: 0 });
    expect(dhiRun.counts).toMatchObject({ skipped: 1, mustNotRun: 1 });
  });

  it('show how many MUST cases did not run, and why: console, JUnit (a failure unless --allow-skips) and HTML', () => {
    const cases = [record('1.1.1', 'pass'), record('9.1.1', 'skipped'), record('9.1.2', 'skipped'), { ...record('7.1.1', 'skipped'), reason: 'no rules API' }, record('9.6.1', 'skipped', 'SHOULD')];
    const strictRun = run('dhi', cases);
    expect(strictRun.mustNotRun).toEqual([{ reason: 'needs the control API', ids: ['9.1.1', '9.1.2'] }, { reason: 'no rules API', ids: ['7.1.1'] }]);
    expect(summaryLines(strictRun, 'out')).toEqual(expect.arrayContaining([
      '3 MUST cases did not run (this fails the run; --allow-skips accepts it):',
      '  - 2 MUST: needs the control API (9.1.1, 9.1.2)',
      '  - 1 MUST: no rules API (7.1.1)',
    ]));
    const junit = junitXml([strictRun]);
    expect(junit).toContain('failures="3" errors="0" skipped="1"');
    expect(junit.match(/<failure message="MUST case did not run: [^"]+" type="NOT_RUN"\/>/g)).toHaveLength(3);
    expect(junit).toContain('<property name="mustNotRun" value="3"/>');
    const allowed = junitXml([run('dhi', cases, true)]);
    expect(allowed).toContain('failures="0" errors="0" skipped="4"');
    expect(allowed).not.toContain('NOT_RUN');
    const html = reportHtml([strictRun]);
    expect(html).toContain('dhi: 3 MUST cases did not run</b> (this fails the run)');
    expect(html).toContain('<a href="#case-7.1.1">7.1.1</a>');
  });

  it('write index.json, junit.xml and index.html, keeping one run per agent in the directory', async () => {
    await writeReports(dir, dhiRun);
    const runs = await writeReports(dir, tbRun);
    expect(runs.map((r) => r.agent)).toEqual(['dhi', 'thingsboard']);
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as ReportIndex;
    expect(index.runs[1].cases[1]).toMatchObject({ id: '1.2.1', outcome: 'fail', failures: [{ expected: 400, actual: 500 }] });
    expect(index.runs[0].cases[0].transcript[0].curl).toMatch(/^curl /);
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    // junit.xml holds this run only: CI counts what it ran, not an earlier agent's run.
    expect(junit.match(/<testsuite /g)).toHaveLength(1);
    expect(junit).toContain('name="dhi conform: thingsboard"');
    await writeReports(dir, dhiRun);
    const again = await readFile(join(dir, 'junit.xml'), 'utf8');
    expect(again).toContain('name="dhi conform: dhi"');
    expect(again).not.toContain('thingsboard');
    expect(junit).toContain('<failure message="MUST: statusIs - ThingsBoard answers 500 here" type="MUST">');
    expect(again).toContain('<failure message="MUST case did not run: needs the control API" type="NOT_RUN"/>');
  });

  it('escape XML and HTML', () => {
    expect(escapeXml('a<b>&"\'\u0001')).toBe('a&lt;b&gt;&amp;&quot;&apos;');
    const html = reportHtml([dhiRun]);
    expect(html).not.toContain('<b>&</b>');
    expect(html).not.toContain('"</script>"');
  });

  it('need no network: no external scripts, styles or images', () => {
    const html = reportHtml([dhiRun, tbRun]);
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
    expect(html).toContain('id="matrix"');
  });
});

describe('the HTML report in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders the case count, the agents x cases matrix, and filters by outcome and severity', async () => {
    await writeReports(dir, tbRun);
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(join(dir, 'index.html')).href);
    expect(await page.textContent('#case-count')).toBe('4');
    expect(await page.textContent('#agent-count')).toBe('2');
    expect(await page.locator('#matrix tr').count()).toBe(5);
    expect(await page.textContent('#shown-count')).toBe('4');
    await page.locator('#filters input[value="pass"]').uncheck();
    expect(await page.textContent('#shown-count')).toBe('2');
    await page.locator('#filters input[value="SHOULD"]').uncheck();
    expect(await page.textContent('#shown-count')).toBe('2');
    await page.selectOption('#agent', 'thingsboard');
    expect(await page.textContent('#shown-count')).toBe('1');
    await page.locator('#filters input[value="pass"]').check();
    expect(await page.textContent('#shown-count')).toBe('3');
    expect(requests.every((u) => u.startsWith('file:'))).toBe(true);
    await page.close();
  });
});
