import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseRecord } from '../case.js';
import { reportHtml } from '../report/html.js';
import { countRecords, type ReportIndex, type RunReport } from '../report/json.js';
import { escapeXml } from '../report/junit.js';
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

function run(agent: string, cases: CaseRecord[]): RunReport {
  return { agent, target: `http://${agent}:8080`, controlUrl: `http://${agent}:8080`, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1500, strict: false, exitCode: 1, counts: countRecords(cases), cases };
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
    expect(tbRun.counts).toEqual({ pass: 2, fail: 2, skipped: 0, error: 0, total: 4, mustFailures: 1, shouldFailures: 1 });
  });

  it('write index.json, junit.xml and index.html, keeping one run per agent in the directory', async () => {
    await writeReports(dir, dhiRun);
    const runs = await writeReports(dir, tbRun);
    expect(runs.map((r) => r.agent)).toEqual(['dhi', 'thingsboard']);
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as ReportIndex;
    expect(index.runs[1].cases[1]).toMatchObject({ id: '1.2.1', outcome: 'fail', failures: [{ expected: 400, actual: 500 }] });
    expect(index.runs[0].cases[0].transcript[0].curl).toMatch(/^curl /);
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    expect(junit.match(/<testsuite /g)).toHaveLength(2);
    expect(junit).toContain('<failure message="MUST: statusIs - ThingsBoard answers 500 here" type="MUST">');
    expect(junit).toContain('<skipped message="needs the control API"/>');
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
