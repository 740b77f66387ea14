// dhi simulate --prometheus-port: a real `dhi simulate` process against a reference server, scraped
// while it runs. The counters move from scrape to scrape, and the last scrape (during
// --prometheus-linger, after the reports are written) equals summary.json path by path and phase
// by phase: requests, errors, timed values, what the devices saw.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../reference-server/server.js';
import { sample } from '../../test/prometheus-text.js';
import { tempDir } from '../../reference-server/test/helpers.js';
import type { Summary } from '../report/summary.js';
import { dhi } from './run-cli.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, httpsPort: -1, db: ':memory:', logLevel: 'silent' });
});
afterAll(async () => {
  await server?.close();
});

const scrape = async (url: string) => (await fetch(url)).text();

describe('dhi simulate --prometheus-port', () => {
  it('serves per-path counters and latency histograms that move during the run and end equal to the summary', async () => {
    const reportDir = tempDir();
    let url: string | undefined;
    const scrapes: string[] = [];
    let final: string | undefined;
    let scraping: Promise<void> | undefined;
    let out = '';
    const run = dhi(
      ['simulate', '--target', server.httpUrl, '--devices', '4', '--duration', '4s', '--scenario', 'mixed', '--interval', '250ms', '--rpc-rate', '4', '--attr-rate', '4', '--warmup', '1s', '--report-dir', reportDir, '--prometheus-port', '0', '--prometheus-linger', '20s'],
      (stdout, child) => {
        out = stdout;
        const found = /prometheus: (http:\/\/127\.0\.0\.1:\d+\/metrics)\n/.exec(stdout)?.[1];
        if (found && !url) {
          url = found;
          // Scrape every 300 ms while the run goes on (a Prometheus with a short interval).
          scraping = (async () => {
            while (!/^reports: /m.test(out)) {
              scrapes.push(await scrape(found));
              await new Promise((resolve) => setTimeout(resolve, 300));
            }
          })();
        }
        // The reports are written: the final figures are up until the linger ends (Ctrl-C ends it now).
        if (/final figures stay at/.test(stdout) && final === undefined) {
          final = '';
          void scraping!.then(async () => {
            final = await scrape(url!);
            child.kill('SIGINT');
          });
        }
      },
    );
    const { code, stdout, stderr } = await run;
    expect(code, stdout + stderr).toBe(0);
    expect(final).toBeTruthy();
    await expect(fetch(url!)).rejects.toThrow();

    const sent = scrapes.map((s) => sample(s, 'dhi_simulate_requests_total', 'path="telemetry",phase="steady",outcome="ok"') ?? 0);
    expect(sent.length).toBeGreaterThanOrEqual(5);
    expect(sent.filter((n, i) => i > 0 && n > sent[i - 1]).length, `counters over the scrapes: ${sent.join(', ')}`).toBeGreaterThanOrEqual(2);
    expect(sent.every((n, i) => i === 0 || n >= sent[i - 1])).toBe(true);

    const [stamp] = readdirSync(reportDir);
    const summary = JSON.parse(readFileSync(join(reportDir, stamp, 'summary.json'), 'utf8')) as Summary;
    const text = final!;
    for (const [phase, paths] of [['steady', summary.paths], ['warmup', summary.warmup.paths]] as const) {
      for (const [path, p] of Object.entries(paths)) {
        expect(sample(text, 'dhi_simulate_requests_total', `path="${path}",phase="${phase}",outcome="ok"`) ?? 0, `${phase} ${path} ok`).toBe(p.count);
        for (const [cls, n] of Object.entries(p.errorsByClass)) expect(sample(text, 'dhi_simulate_requests_total', `path="${path}",phase="${phase}",outcome="${cls}"`), `${phase} ${path} ${cls}`).toBe(n);
        expect(sample(text, 'dhi_simulate_latency_seconds_count', `path="${path}",phase="${phase}"`) ?? 0, `${phase} ${path} timed`).toBe(p.latencyMs.count);
      }
    }
    expect(Object.keys(summary.paths)).toEqual(expect.arrayContaining(['telemetry', 'attributePush', 'rpc']));
    expect(summary.paths.telemetry!.count).toBeGreaterThan(0);
    for (const [name, n] of Object.entries(summary.counters)) {
      if (name === 'devicesOnline') expect(sample(text, 'dhi_simulate_devices_online')).toBe(n);
      else expect(sample(text, 'dhi_simulate_events_total', `event="${name}"`) ?? 0, name).toBe(n);
    }
    // The p99 bucket bound is at or above the summary's p99 (the histogram's buckets are coarser).
    const p99 = summary.paths.telemetry!.latencyMs.p99 / 1000;
    const count = summary.paths.telemetry!.latencyMs.count;
    const le = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300].find((b) => (sample(text, 'dhi_simulate_latency_seconds_bucket', `le="${b}",path="telemetry",phase="steady"`) ?? 0) >= 0.99 * count)!;
    expect(le).toBeGreaterThanOrEqual(p99 * 0.99);
  }, 60_000);

  it('refuses a taken port before the run, with exit code 2', async () => {
    const taken = new URL(server.httpUrl).port;
    const { code, stderr } = await dhi(['simulate', '--target', server.httpUrl, '--devices', '1', '--duration', '1s', '--prometheus-port', taken]);
    expect(code).toBe(2);
    expect(stderr).toContain(`dhi simulate: --prometheus-port: cannot listen on 127.0.0.1:${taken}: the port is already in use`);
  });
});
