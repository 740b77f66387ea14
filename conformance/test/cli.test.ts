import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../../test/ports.js';
import { runConform, UsageError } from '../cli.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function dhi(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/dhi.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: 25_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('dhi conform usage', () => {
  it('rejects bad options with a message naming them', async () => {
    await expect(runConform({})).rejects.toThrow(new UsageError('--target <url> is required (the base URL of the device API)'));
    await expect(runConform({ target: 'ftp://x' })).rejects.toThrow(/--target: expected an http\(s\) URL/);
    await expect(runConform({ target: 'http://127.0.0.1:1', concurrency: 0 })).rejects.toThrow(/--concurrency/);
    await expect(runConform({ target: 'http://127.0.0.1:1', cases: ['99.*'] })).rejects.toThrow(new UsageError('no case matches --cases 99.* (see --list)'));
    await expect(runConform({ target: 'http://127.0.0.1:1', cases: ['1.*'], exclude: ['*'] })).rejects.toThrow(new UsageError('no case matches --cases 1.* --exclude * (see --list)'));
  });

  it('lists the selected catalogue without a target', async () => {
    const lines: string[] = [];
    const result = await runConform({ list: true, cases: ['4.*'], print: (l) => lines.push(l) });
    expect(result.exitCode).toBe(0);
    expect(lines.at(-1)).toMatch(/^\d+ cases \(op 4: \d+\)$/);
    expect(lines[0]).toMatch(/^4\.1\.1 /);
  });

  it('answers an unreachable target with exit code 3', async () => {
    const lines: string[] = [];
    const result = await runConform({ target: `http://127.0.0.1:${await closedPort()}`, print: (l) => lines.push(l), reportDir: join(ROOT, 'reports', 'unused') });
    expect(result.exitCode).toBe(3);
    expect(lines.join('\n')).toMatch(/is not reachable/);
  });

  it('says first that a server which is not the device API (a static file server) does not look like it, and keeps console lines short', async () => {
    const page = `<!DOCTYPE html>\n<html>\n<head><title>Not found</title></head>\n<body>\n${'<p>nothing here</p>\n'.repeat(50)}</body>\n</html>\n`;
    const server = createHttpServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end(page));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = await mkdtemp(join(tmpdir(), 'dhi-conform-static-'));
    try {
      const lines: string[] = [];
      const stopped = await runConform({ target, reportDir: dir, print: (l) => lines.push(l) });
      expect(stopped.exitCode).toBe(2);
      expect(lines[0]).toBe(`dhi conform: warning: the target does not look like the device API: GET ${target}/api/v1/dhi-conform-probe/attributes answered 404 (text/html, ${Buffer.byteLength(page)} bytes) where a device API answers an unknown token 401`);
      expect(lines[1]).toMatch(/^dhi conform: control API login failed: POST .*\/api\/auth\/login as tenant@thingsboard\.org answered 404;/);
      const ran: string[] = [];
      const result = await runConform({ target, reportDir: dir, allowSkips: true, cases: ['1.3.1', '1.4.*'], print: (l) => ran.push(...l.split('\n')) });
      expect(result.exitCode).toBe(1);
      expect(ran.filter((l) => l.includes('<!DOCTYPE html>')).length).toBeGreaterThan(0);
      for (const line of ran) expect(line.length, line).toBeLessThan(400);
      expect(ran.some((l) => l.startsWith('<'))).toBe(false);
    } finally {
      server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 from the command line for a usage error', async () => {
    const missing = await dhi('conform');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--target <url> is required/);
    const bad = await dhi('conform', '--target', 'http://127.0.0.1:1', '--concurrency', 'many');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--concurrency/);
  });
});
