import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, startTestServer, stopTestServer, type TestServer } from '../../reference-server/test/helpers.js';
import { dhi } from './run-cli.js';

describe('dhi simulate on the command line', () => {
  let server: TestServer;
  let dir: string;
  let tokens: string;

  beforeAll(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'dhi-sim-cli-'));
    tokens = join(dir, 'tokens.txt');
    const lines: string[] = ['# existing devices'];
    for (let i = 0; i < 5; i++) lines.push((await createDevice(server.ctx)).token);
    writeFileSync(tokens, lines.join('\n'));
  });
  afterAll(async () => {
    await stopTestServer(server);
  });

  it('exits non-zero when a threshold is breached, after writing the reports', async () => {
    const reportDir = join(dir, 'reports');
    const { code, stdout, stderr } = await dhi([
      'simulate', '--target', server.httpUrl, '--tokens', tokens, '--devices', '5', '--duration', '1s',
      '--scenario', 'telemetry', '--interval', '100ms', '--threshold', 'telemetry.p99<0.001', '--threshold', 'telemetry.errors<1', '--report-dir', reportDir,
    ]);
    expect(stderr).toContain('a threshold was breached');
    expect(code).toBe(1);
    expect(stdout).toContain('threshold telemetry.p99<0.001: FAIL');
    expect(stdout).toContain('threshold telemetry.errors<1: pass');
    const [run] = readdirSync(reportDir);
    const summary = JSON.parse(readFileSync(join(reportDir, run, 'summary.json'), 'utf8'));
    expect(summary.passed).toBe(false);
    expect(summary.paths.telemetry.count).toBeGreaterThan(0);
    expect(summary.paths.telemetry.errors).toBe(0);
  });

  it('stops on Ctrl-C, writes the reports with interrupted: true and exits 130', async () => {
    const reportDir = join(dir, 'interrupted');
    let signalled = false;
    const { code, stdout, stderr } = await dhi(
      ['simulate', '--target', server.httpUrl, '--tokens', tokens, '--devices', '5', '--duration', '10m', '--scenario', 'telemetry', '--interval', '100ms', '--report-dir', reportDir],
      (out, child) => {
        // Once the load is on (the first per-second lines), as a user would press it.
        if (!signalled && /steady\s+errors/.test(out)) {
          signalled = true;
          child.kill('SIGINT');
        }
      },
    );
    expect(code).toBe(130);
    expect(stdout).toContain('interrupted: stopping the run');
    expect(stderr).toContain('dhi simulate: interrupted');
    const [run] = readdirSync(reportDir);
    const summary = JSON.parse(readFileSync(join(reportDir, run, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ interrupted: true, passed: false });
    expect(summary.paths.telemetry.count).toBeGreaterThan(0);
  });

  it('exits 2 naming the field when the scenario file is invalid', async () => {
    const file = join(dir, 'bad-scenario.json');
    writeFileSync(file, JSON.stringify({ name: 'bad', polls: { timeoutMs: -5 } }));
    const { code, stderr } = await dhi(['simulate', '--target', server.httpUrl, '--scenario', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(`scenario file ${file}: field "polls.timeoutMs" must be >= 1`);
  });

  it('exits 2 naming the option when a value is bad', async () => {
    const { code, stderr } = await dhi(['simulate', '--target', server.httpUrl, '--threshold', 'rpc.p98<5']);
    expect(code).toBe(2);
    expect(stderr).toContain("option '--threshold <expr>' argument 'rpc.p98<5' is invalid");
  });

  it('exits 2 without --target, and when --calibrate meets an option that names a real server', async () => {
    const missing = await dhi(['simulate', '--devices', '5']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--target is required (or --calibrate');
    const clash = await dhi(['simulate', '--calibrate', '--target', server.httpUrl]);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('--calibrate and --target exclude each other');
    const plan = await dhi(['simulate', '--calibrate', 'latency=20ms,jitter=1ms']);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toContain('unknown calibration setting "jitter"');
    const short = await dhi(['simulate', '--calibrate', 'silence=5s', '--duration', '6s']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('a silence of 5 s needs a --duration of at least 10 s');
  });
});
