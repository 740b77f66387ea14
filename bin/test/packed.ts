// The package as a user gets it: `npm pack`, then `npm install` of the tarball into an empty folder.
// Installs take their dependencies from npm's cache (or the registry) with --ignore-scripts, and get
// this checkout's compiled better-sqlite3 binary instead of compiling it again (minutes on two
// cores); everything else is the real thing.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const STEP_TIMEOUT_MS = 240_000;

// npm hands its own settings (npm_config_*, npm_package_*) to `npm test`: the inner npm must not
// take them for its own.
export const ENV: Record<string, string> = Object.fromEntries(
  Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !e[0].toLowerCase().startsWith('npm_')),
);

/** This checkout's compiled better-sqlite3, copied into each install. */
export const SQLITE_BINARY = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3')), '..', 'build', 'Release', 'better_sqlite3.node');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function collect(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function run(command: string, args: string[], cwd: string, env: Record<string, string> = ENV): Promise<Run> {
  return collect(spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: STEP_TIMEOUT_MS }));
}

export interface Packed {
  tarball: string;
  files: string[];
}

/** `npm pack` of this checkout (its prepare script builds dist/) into `dir`. */
export async function pack(dir: string): Promise<Packed> {
  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], ROOT);
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const [report] = JSON.parse(packed.stdout.slice(packed.stdout.search(/^\[/m))) as { filename: string; files: { path: string }[] }[];
  return { tarball: join(dir, report.filename), files: report.files.map((f) => f.path) };
}

/** Puts the compiled better-sqlite3 binary where an install made with --ignore-scripts lacks it. */
export function addSqliteBinary(app: string): void {
  const release = join(app, 'node_modules', 'better-sqlite3', 'build', 'Release');
  if (existsSync(join(release, 'better_sqlite3.node'))) return;
  mkdirSync(release, { recursive: true });
  copyFileSync(SQLITE_BINARY, join(release, 'better_sqlite3.node'));
}

/** `npm install <packages>` into `app` (made when missing), as a user would, less the native build. */
export async function install(app: string, packages: string[]): Promise<Run> {
  mkdirSync(app, { recursive: true });
  const installed = await run('npm', ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', ...packages], app);
  if (installed.code === 0) addSqliteBinary(app);
  return installed;
}

/**
 * For shell recipes run as written: an `npm` that installs with --ignore-scripts from the cache
 * first and then adds the binary (a bash function, so subshells of the recipe use it too).
 */
export const NPM_SHIM = `npm() {
  command npm "$@" || return $?
  if [ "$1" = install ] && [ -d node_modules/better-sqlite3 ] && [ ! -f node_modules/better-sqlite3/build/Release/better_sqlite3.node ]; then
    mkdir -p node_modules/better-sqlite3/build/Release && cp '${SQLITE_BINARY}' node_modules/better-sqlite3/build/Release/
  fi
}
export npm_config_ignore_scripts=true npm_config_prefer_offline=true npm_config_audit=false npm_config_fund=false
`;

export interface PackedServer {
  url: string;
  stop(): Promise<void>;
}

/** `npx dhi serve` in `app`, on a free port, in memory. */
export async function startPackedServer(app: string, extra: string[] = []): Promise<PackedServer> {
  // Its own process group: npx runs dhi under a shell, and the stop signal must reach all three.
  const server = spawn('npx', ['--no-install', 'dhi', 'serve', '--host', '127.0.0.1', '--port', '0', '--https-port', '-1', '--db', ':memory:', ...extra], { cwd: app, env: ENV, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const served = collect(server);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(seen);
      if (match) resolve(match[0]);
    });
    server.on('close', (code) => reject(new Error(`dhi serve exited ${code} before printing its URL: ${seen}`)));
  });
  return {
    url,
    async stop() {
      process.kill(-(server.pid as number), 'SIGTERM');
      await served;
    },
  };
}
