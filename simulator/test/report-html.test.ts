import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SimulationResult } from '../engine.js';
import { createAggregate, createRecorder } from '../metrics.js';
import { buildSummary, writeReports } from '../report/summary.js';
import { builtinScenario } from '../scenario.js';
import { parseThreshold } from '../thresholds.js';
import { launchBrowser } from '../../test/browser.js';

/** A finished run of 10 seconds with a little of everything, errors included. */
function fakeResult(): SimulationResult {
  const aggregate = createAggregate();
  const recorder = createRecorder();
  for (let second = 0; second < 10; second++) {
    for (let i = 0; i < 50; i++) recorder.ok('telemetry', 2000 + i * 100 + second * 10);
    for (let i = 0; i < 5; i++) recorder.ok('rpc', 8000 + i * 1000);
    recorder.ok('attributePush', 3000);
    if (second === 4) recorder.fail('telemetry', 'status 503');
    recorder.count('telemetryPoints', 150);
    aggregate.absorb(recorder.drain(), second);
    aggregate.interval(second);
  }
  return {
    config: {
      target: 'http://127.0.0.1:8080',
      controlUrl: 'http://127.0.0.1:8080',
      username: 'tenant@thingsboard.org',
      password: 'tenant',
      devices: 100,
      durationMs: 10_000,
      scenario: builtinScenario('mixed'),
      rampPerSecond: null,
      provision: null,
      tokensFile: null,
      workers: 0,
      seed: 1,
      keepDevices: false,
      insecure: false,
    },
    startedAt: new Date().toISOString(),
    runMs: 10_000,
    aggregate,
    fleet: { source: 'control', members: 100, addressable: 100 },
    simulator: { processes: 1, cpuMicros: 400_000, maxRssBytes: 90 * 1048576, sourceAddresses: [] },
  };
}

describe('report.html', () => {
  it('writes summary.json and a report whose figures match it', () => {
    const summary = buildSummary(fakeResult(), parseThreshold('rpc.p99<5'));
    const dir = writeReports(summary, mkdtempSync(join(tmpdir(), 'dhi-report-')));
    const written = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(written.paths.telemetry.count).toBe(500);
    expect(written.paths.telemetry.errors).toBe(1);
    expect(written.timeline.paths.telemetry.ok).toHaveLength(10);
    expect(written.timeline.paths.telemetry.p99Ms).toHaveLength(10);
    expect(written.passed).toBe(false);
    expect(written.thresholds[0]).toMatchObject({ expression: 'rpc.p99<5', passed: false });
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/); // nothing fetched from anywhere
  });

  it('opens in headless Chromium without the network and draws its charts', async () => {
    const summary = buildSummary(fakeResult(), []);
    const dir = writeReports(summary, mkdtempSync(join(tmpdir(), 'dhi-report-')));
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      const errors: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(join(dir, 'report.html')).href);
      await page.waitForSelector('body[data-ready="true"]');
      expect(errors).toEqual([]);
      expect(requests.every((u) => u.startsWith('file:'))).toBe(true);
      expect(await page.locator('svg.chart').count()).toBe(4); // latency, throughput, p99 per second, errors
      expect(await page.locator('svg.chart polyline[data-series="telemetry"]').count()).toBe(3);
      expect(await page.title()).toContain('dhi simulate - mixed');
      // The legend toggles a series.
      await page.locator('svg.chart').first().locator('.legend[data-series="rpc"]').click();
      expect(await page.locator('svg.chart').first().locator('polyline.off').count()).toBe(1);
    } finally {
      await browser.close();
    }
  });
});
