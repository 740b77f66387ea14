import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SimulationResult } from '../simulation.js';
import { monoNow } from '../clock.js';
import { createAggregate } from '../aggregate.js';
import { createRecorder } from '../metrics.js';
import { buildSummary } from '../report/summary.js';
import { writeReports } from '../report/write.js';
import { builtinScenario } from '../scenario.js';
import { parseThreshold } from '../thresholds.js';
import { launchBrowser } from '../../test/browser.js';

/** A finished run of 10 seconds (2 of warm-up) with a little of everything, errors included. */
function fakeResult(): SimulationResult {
  const aggregate = createAggregate();
  const recorder = createRecorder();
  // A value of `ms` milliseconds: a request that started that long ago.
  const ago = (ms: number) => monoNow() - ms;
  for (let second = 0; second < 10; second++) {
    if (second === 2) recorder.steadyFrom(-Infinity);
    for (let i = 0; i < 50; i++) recorder.record('telemetry', 'ok', ago(2 + i * 0.1 + second * 0.01), 'sent');
    for (let i = 0; i < 5; i++) recorder.record('rpc', 'ok', ago(8 + i), 'intended');
    recorder.record('rpc', 'ok', ago(8), 'intended'); // as many rpc as rpcReply: equal rates
    for (let i = 0; i < 6; i++) recorder.record('rpcReply', 'ok', ago(1), 'sent');
    recorder.record('attributePush', 'ok', ago(3), 'sent');
    if (second === 4) recorder.record('telemetry', 'status 503', ago(40), 'sent');
    if (second === 5) recorder.record('attributeWrite', 'dropped', ago(0), 'untimed');
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
      warmupMs: null,
      maxConnectionsPerDevice: 16,
      requestTimeoutMs: 10_000,
    },
    startedAt: new Date().toISOString(),
    runMs: 10_000,
    stopMs: 40,
    warmupMs: 2000,
    steadyReached: true,
    interrupted: false,
    aggregate,
    fleet: { source: 'control', members: 100, addressable: 100 },
    simulator: { processes: 1, cpuMicros: 400_000, maxRssBytes: 90 * 1048576, sourceAddresses: [], peakConnections: 140, connectionsOpened: 300 },
  };
}

describe('report.html', () => {
  it('writes summary.json and a report whose figures match it', () => {
    const summary = buildSummary(fakeResult(), parseThreshold('rpc.p99<5'));
    const dir = writeReports(summary, mkdtempSync(join(tmpdir(), 'dhi-report-')));
    const written = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(written.paths.telemetry.count).toBe(400);
    expect(written.warmup.paths.telemetry.count).toBe(100);
    expect(written.paths.telemetry.rate).toBe(50);
    expect(written.paths.telemetry.errors).toBe(1);
    expect(written.paths.telemetry.latencyMs.max).toBeGreaterThanOrEqual(40); // the 503 is timed too
    expect(written.paths.attributeWrite).toMatchObject({ count: 0, errors: 1, errorsByClass: { dropped: 1 } });
    expect(written.paths.rpc.correctedForCoordinatedOmission).toBe(true);
    expect(written.paths.telemetry.correctedForCoordinatedOmission).toBe(false);
    expect(Object.keys(written.paths)).toEqual(['telemetry', 'attributePush', 'attributeWrite', 'rpc', 'rpcReply']);
    expect(written.timeline.paths.telemetry.ok).toHaveLength(10);
    expect(written.timeline.paths.telemetry.p99Ms).toHaveLength(10);
    expect(written.passed).toBe(false);
    expect(written.thresholds[0]).toMatchObject({ expression: 'rpc.p99<5', passed: false });
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<td class="fail">FAIL</td>');
    // rpc and rpcReply ran at the same rate: each has a throughput chart of its own, so neither hides the other.
    const throughput = html.match(/<svg class="chart"[^>]*aria-label="[^"]*successful requests per second".*?<\/svg>/g) ?? [];
    expect(throughput).toHaveLength(5);
    for (const name of ['rpc', 'rpcReply']) {
      const own = throughput.filter((svg) => svg.includes(`polyline data-series="${name}"`));
      expect(own).toHaveLength(1);
      expect(own[0].match(/<polyline/g)).toHaveLength(1);
    }
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
      // latency, one throughput chart per path (5), p99 per second, errors
      expect(await page.locator('svg.chart').count()).toBe(8);
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
