import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../bin/commands.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TIMEOUT_MS = 25_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npx tsx bin/dhi.ts ...args` from the package root; killed after TIMEOUT_MS. */
function dhi(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['--no-install', 'tsx', 'bin/dhi.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: TIMEOUT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// The options users and other tools rely on (design.md, "The CLI"): they must stay.
const NAMED_OPTIONS: Record<string, string[]> = {
  serve: ['--host', '--port', '--https-port', '--tls-cert', '--tls-key', '--db'],
  conform: ['--target', '--report-dir', '--agent', '--strict'],
  simulate: ['--target', '--devices', '--duration', '--scenario', '--report-dir'],
  bench: [],
  demo: [],
};

// Every option each subcommand defines, read from the command definitions themselves.
const program = new Command('dhi');
registerCommands(program);
const DEFINED_OPTIONS = new Map(program.commands.map((c) => [c.name(), c.options.map((o) => o.long ?? o.flags)]));

// Each run starts a fresh tsx process (about a second): run them side by side.
describe.concurrent('the dhi CLI', () => {
  it('defines exactly the subcommands serve, conform, simulate, bench and demo', () => {
    expect([...DEFINED_OPTIONS.keys()].sort()).toEqual(Object.keys(NAMED_OPTIONS).sort());
  });

  it('prints its help with every subcommand and exits 0 on --help', async () => {
    const run = await dhi('--help');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: dhi');
    for (const name of Object.keys(NAMED_OPTIONS)) expect(run.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
  });

  it.each(Object.keys(NAMED_OPTIONS))('prints the options of dhi %s and exits 0 on --help', async (name) => {
    const run = await dhi(name, '--help');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Usage: dhi ${name}`);
    expect(run.stdout).toContain('Options:');
    for (const option of [...NAMED_OPTIONS[name], ...(DEFINED_OPTIONS.get(name) ?? []), '--help']) {
      expect(run.stdout, `dhi ${name} --help shows ${option}`).toContain(option);
    }
  });

  it('exits 2 with a message naming --port on dhi serve --port abc', async () => {
    const run = await dhi('serve', '--port', 'abc');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--port/);
    expect(run.stderr).toMatch(/abc/);
  });

  it('exits 2 with a message naming the option on an unknown option', async () => {
    const run = await dhi('serve', '--no-such-option');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--no-such-option');
  });
});
