// `npm pack` gives a package that installs into an empty folder and runs there: `npx dhi --help`,
// `npx dhi serve`, `npx dhi conform --target ...`. The install takes its dependencies from npm's
// cache (or the registry) with --ignore-scripts, and copies this checkout's compiled better-sqlite3
// binary instead of compiling it again (minutes on two cores); everything else is the real thing.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STEP_TIMEOUT_MS = 240_000;

// npm hands its own settings (npm_config_*, npm_package_*) to `npm test`: the inner npm must not
// take them for its own.
const ENV = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function collect(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function run(command: string, args: string[], cwd: string): Promise<Run> {
  return collect(spawn(command, args, { cwd, env: ENV, stdio: ['ignore', 'pipe', 'pipe'], timeout: STEP_TIMEOUT_MS }));
}

let work: string;
let app: string;
let files: string[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'dhi-pack-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const [report] = JSON.parse(packed.stdout.slice(packed.stdout.search(/^\[/m))) as { filename: string; files: { path: string }[] }[];
  files = report.files.map((f) => f.path);

  app = join(work, 'app');
  mkdirSync(app);
  const installed = await run('npm', ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', join(work, report.filename)], app);
  expect(installed.code, installed.stderr).toBe(0);
  expect(installed.stderr).not.toMatch(/EBADENGINE/);
  const binary = join('build', 'Release', 'better_sqlite3.node');
  const ours = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3')), '..', binary);
  mkdirSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
  copyFileSync(ours, join(app, 'node_modules', 'better-sqlite3', binary));
}, 2 * STEP_TIMEOUT_MS);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the package npm pack makes', { timeout: STEP_TIMEOUT_MS }, () => {
  it('holds only the built CLI, the contract, the README and package.json: no sources, tests or maps', () => {
    expect(files).toContain('dist/bin/dhi.js');
    expect(files).toContain('spec/device-http-interface.openapi.yaml');
    const others = files.filter((f) => !(f.startsWith('dist/') && f.endsWith('.js')));
    expect(others.sort()).toEqual(['README.md', 'package.json', 'spec/device-http-interface.openapi.yaml']);
    expect(files.filter((f) => /(^|\/)test\//.test(f))).toEqual([]);
  });

  it('answers npx dhi --help in an empty folder it was installed into', async () => {
    const help = await run('npx', ['--no-install', 'dhi', '--help'], app);
    expect(help.code, help.stderr).toBe(0);
    for (const name of ['serve', 'conform', 'simulate', 'bench', 'demo']) expect(help.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
  });

  it('runs npx dhi serve there, and npx dhi conform --target it passes every case', async () => {
    // Its own process group: npx runs dhi under a shell, and the stop signal must reach all three.
    const server = spawn('npx', ['--no-install', 'dhi', 'serve', '--host', '127.0.0.1', '--port', '0', '--https-port', '-1', '--db', ':memory:'], { cwd: app, env: ENV, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const served = collect(server);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        server.stdout?.on('data', (chunk: Buffer) => {
          seen += chunk;
          const match = /http:\/\/127\.0\.0\.1:\d+/.exec(seen);
          if (match) resolve(match[0]);
        });
        server.on('close', (code) => reject(new Error(`dhi serve exited ${code} before printing its URL: ${seen}`)));
      });
      const conform = await run('npx', ['--no-install', 'dhi', 'conform', '--target', url, '--report-dir', join(work, 'reports')], app);
      expect(conform.code, conform.stdout + conform.stderr).toBe(0);
      expect(existsSync(join(work, 'reports', 'index.json'))).toBe(true);
    } finally {
      process.kill(-(server.pid as number), 'SIGTERM');
      await served;
    }
  });
});
