// The unfaulted reference server passes every MUST and SHOULD case, over HTTP and HTTPS.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../reference-server/server.js';
import { catalogue } from '../cases/index.js';
import { launchBrowser } from '../../test/browser.js';
import { notPassing, runSuite } from './suite-run.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, httpsPort: 0, db: ':memory:', logLevel: 'silent' });
});
afterAll(async () => {
  await server?.close();
});

describe('the suite against the reference server', () => {
  it('passes every MUST and SHOULD case', async () => {
    const run = await runSuite({ target: server.httpUrl });
    expect(notPassing(run.records)).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.records.length).toBeGreaterThan(100);
    // The control responses the cases caused are in the document too (control/call.ts notes any that is not).
    expect(run.records.flatMap((r) => (r.notes ?? []).filter((n) => n.startsWith('control response differs')).map((n) => `${r.id}: ${n}`))).toEqual([]);
  }, 60_000);

  it('runs over HTTPS with --insecure, and finds a self-signed target unreachable without it', async () => {
    const secure = await runSuite({ target: server.httpsUrl!, insecure: true, cases: ['1.*', '4.*'] });
    expect(notPassing(secure.records)).toEqual([]);
    const strict = await runSuite({ target: server.httpsUrl!, cases: ['1.1.1'] });
    expect(strict.exitCode).toBe(3);
    expect(strict.lines.join('\n')).toMatch(/not reachable/);
  }, 60_000);

  it('ends with one line naming the login URL and status (exit 2) before any case runs when the control API login fails', async () => {
    const run = await runSuite({ target: server.httpUrl, password: 'not-the-password', cases: ['1.3.*', '4.*'] });
    expect(run.exitCode).toBe(2);
    expect(run.records).toEqual([]);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]).toMatch(new RegExp(`^dhi conform: control API login failed: POST ${server.httpUrl}/api/auth/login as tenant@thingsboard.org answered 401 .*--allow-skips`));
  }, 60_000);

  it('with --allow-skips runs what it can and reports the MUST cases that did not run, and why', async () => {
    const run = await runSuite({ target: server.httpUrl, password: 'not-the-password', cases: ['1.3.*', '4.*'], allowSkips: true });
    expect(run.exitCode).toBe(0);
    const skipped = run.records.filter((r) => r.outcome === 'skipped');
    expect(skipped.map((r) => r.id)).toContain('4.1.1');
    expect(skipped[0].reason).toMatch(/needs the control API: control API login failed: .* answered 401/);
    expect(run.records.find((r) => r.id === '1.3.1')?.outcome).toBe('pass');
    const mustSkipped = skipped.filter((r) => r.severity === 'MUST').length;
    expect(run.lines.join('\n')).toContain(`${mustSkipped} MUST cases did not run (accepted with --allow-skips):`);
  }, 60_000);

  it('does not log in when no selected case needs the control API', async () => {
    const run = await runSuite({ target: server.httpUrl, password: 'not-the-password', cases: ['1.3.1', '1.4.*'] });
    expect(notPassing(run.records)).toEqual([]);
    expect(run.exitCode).toBe(0);
  }, 60_000);

  it('`dhi conform --target` writes index.json, junit.xml and index.html (rendered in headless Chromium) and exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dhi-conform-cli-'));
    try {
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'bin/dhi.ts', 'conform', '--target', server.httpUrl, '--report-dir', dir, '--agent', 'dhi', '--strict'], { cwd: ROOT, stdio: 'ignore', timeout: 50_000 });
        child.on('error', reject);
        child.on('close', resolve);
      });
      expect(code).toBe(0);
      for (const file of ['index.json', 'junit.xml', 'index.html', 'runs/dhi.json']) expect(existsSync(join(dir, file)), file).toBe(true);
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage();
        await page.goto(pathToFileURL(join(dir, 'index.html')).href);
        expect(Number(await page.textContent('#case-count'))).toBe(catalogue.length);
        expect(await page.locator('details.case[data-outcome="pass"]').count()).toBe(catalogue.length);
      } finally {
        await browser.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
