import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../bin/commands.js';
import { closedPort } from '../../test/ports.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Generous: other test files load both cores while these run, and a tsx start takes seconds then.
const TIMEOUT_MS = 80_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node --import tsx bin/dhi.ts ...args` from the package root; killed after TIMEOUT_MS. */
function dhi(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/dhi.ts', ...args], {
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
  bench: ['--devices'],
  demo: [],
};

// Every option each subcommand defines, read from the command definitions themselves.
const program = new Command('dhi');
registerCommands(program);
const DEFINED_OPTIONS = new Map(program.commands.map((c) => [c.name(), c.options.map((o) => o.long ?? o.flags)]));

/** The one table of exit codes (cli/exit-codes.ts), one line per code. */
function expectExitCodeTable(help: string): void {
  expect(help).toContain('Exit codes (the same for every command):');
  for (const code of ['0', '1', '2', '3', '70', '130']) expect(help).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
}

// Each run starts a fresh tsx process (about a second): run them side by side.
describe.concurrent('the dhi CLI', { timeout: TIMEOUT_MS + 5_000 }, () => {
  it('defines exactly the subcommands serve, conform, simulate, bench and demo', () => {
    expect([...DEFINED_OPTIONS.keys()].sort()).toEqual(Object.keys(NAMED_OPTIONS).sort());
  });

  it('prints its help with every subcommand and exits 0 on --help', async () => {
    const run = await dhi('--help');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: dhi');
    for (const name of Object.keys(NAMED_OPTIONS)) expect(run.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
    expectExitCodeTable(run.stdout);
  });

  it.each(Object.keys(NAMED_OPTIONS))('prints the options of dhi %s and exits 0 on --help', async (name) => {
    const run = await dhi(name, '--help');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Usage: dhi ${name}`);
    expect(run.stdout).toContain('Options:');
    for (const option of [...NAMED_OPTIONS[name], ...(DEFINED_OPTIONS.get(name) ?? []), '--help']) {
      expect(run.stdout, `dhi ${name} --help shows ${option}`).toContain(option);
    }
    expectExitCodeTable(run.stdout);
  });

  it('exits 2 on dhi serve --port abc with the line naming --port and a one-line hint, not the help', async () => {
    const run = await dhi('serve', '--port', 'abc');
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      `error: option '--port <n>' argument 'abc' is invalid. expected an integer, got "abc".`,
      "(run 'dhi serve --help' for its options)",
    ]);
    expect(run.stdout).toBe('');
  });

  it.each([
    ['1,,100', 'expected integers separated by commas, got "1,,100".'],
    ['1,0', 'expected 1..100000, got 0.'],
  ])('exits 2 on dhi bench --devices %s with the line naming --devices', async (value, message) => {
    const run = await dhi('bench', '--devices', value);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')[0]).toBe(`error: option '--devices <list>' argument '${value}' is invalid. ${message}`);
  });

  it('exits 2 on an unknown command with a suggestion and a one-line hint', async () => {
    const run = await dhi('serv');
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual(["error: unknown command 'serv'", '(Did you mean serve?)', "(run 'dhi --help' for the commands)"]);
  });

  it.each([
    [['--default-poll-timeout', '400000'], '--default-poll-timeout: must not exceed --max-poll-timeout (300000)'],
    [['--tls-cert', 'cert.pem'], '--tls-key: --tls-cert and --tls-key go together'],
    [['--log-level', 'loud'], '--log-level: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
  ])('exits 2 on dhi serve %j with a message that names the flags', async (args, message) => {
    const run = await dhi('serve', '--port', '0', '--https-port', '-1', '--db', ':memory:', ...args);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(`dhi serve: invalid option ${message}`);
  });

  it.each([
    ['conform', []],
    ['simulate', ['--devices', '1', '--duration', '1s']],
    ['bench', ['--duration', '1s']],
  ])('exits 3 from dhi %s against an unreachable target, in one line without a stack trace', async (name, args) => {
    const target = `http://127.0.0.1:${await closedPort()}`;
    const run = await dhi(name, '--target', target, '--report-dir', join(ROOT, 'reports', 'unused'), ...args);
    expect(run.code, run.stdout + run.stderr).toBe(3);
    const lines = (run.stdout + run.stderr).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^dhi ${name}: .*${target.replace(/[.:/]/g, '\\$&')}.*ECONNREFUSED`));
  });

  it('exits 2 with a message naming the option on an unknown option', async () => {
    const run = await dhi('serve', '--no-such-option');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--no-such-option');
  });
});
