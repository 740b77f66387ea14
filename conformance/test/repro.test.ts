// A failed case's repro script, run with sh, logs in for $DHI_JWT, re-creates the devices the case
// made (deleted after the run) and shows the failure again.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../reference-server/server.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { faults } from './faults.js';
import { runSuite } from './suite-run.js';

let server: RunningServer;
let proxy: FaultProxy;
beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, httpsPort: -1, db: ':memory:', logLevel: 'silent' });
  proxy = await startFaultProxy(server.httpUrl, faults().find((f) => f.name === 'a requested missing attribute reported as null'));
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

describe('reproduction scripts', () => {
  it('replay a failed case: log in, set up its devices again, show the failure, clean up', async () => {
    const run = await runSuite({ target: proxy.url, cases: ['3.1.4', '3.1.1'], reportDir: await mkdtemp(join(tmpdir(), 'dhi-repro-')) });
    try {
      expect(run.exitCode).toBe(1);
      expect(run.lines.join('\n')).toContain(`reproduce a failure: sh ${run.reportDir}/repro/<id>.sh`);
      const script = await readFile(join(run.reportDir, 'repro', '3.1.4.sh'), 'utf8');
      await expect(readFile(join(run.reportDir, 'repro', '3.1.1.sh'), 'utf8')).rejects.toThrow(/ENOENT/);
      expect(script).toMatch(/^export DHI_JWT=/m);
      expect(script).toMatch(/# set-up[^\n]*\nDEVICE_1=\$\(curl [^\n]*\/api\/device\?accessToken=/);
      const { stdout } = await promisify(execFile)('sh', [join(run.reportDir, 'repro', '3.1.4.sh')], { env: { PATH: process.env.PATH } });
      const statuses = [...stdout.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => Number(m[1]));
      expect(statuses.length, stdout + script).toBeGreaterThanOrEqual(4);
      expect(statuses.every((s) => s === 200), stdout).toBe(true);
      expect(stdout).toMatch(/^DEVICE_1=[0-9a-f-]{36}$/m);
      expect(stdout).toContain('"noSuchClient":null');
    } finally {
      await rm(run.reportDir, { recursive: true, force: true });
    }
  }, 60_000);
});
