// `dhi serve` as a child process for the benchmarks and the tests that need the real process: start
// it with its output collected, wait for what it prints (its banner), log in and create devices
// through the control API, count stored rows.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createSqliteStore } from '../store/sqlite.js';
import { Agent, request, type Dispatcher } from 'undici';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface ServeChild {
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process has gone and its output ended. */
  exited: Promise<number | string>;
  /** What it printed so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the match once its stdout matches `pattern`; rejects if it exits first. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  /** Its device API's URLs, once its banner has named them; rejects if it exits first. */
  listening(): Promise<{ http: string; https?: string }>;
}

export interface ServeProcess extends ServeChild {
  http: string;
  https?: string;
}

/** The banner's first line, whole. */
const BANNER = /device API on (http:\/\/\S+)(?: and (https:\/\/\S+))?\n/;

/**
 * `dhi serve` with these arguments in a child process of its own. `prefix`: a command that runs it
 * (nsenter into a mount namespace: disk-full.ts); `uid`: the user it runs as, without tsx's cache
 * (which belongs to the user running the tests).
 */
export function spawnServe(args: string[], { prefix = [], uid }: { prefix?: string[]; uid?: number } = {}): ServeChild {
  const command = [...prefix, process.execPath, '--import', 'tsx', join(ROOT, 'bin', 'dhi.ts'), 'serve', ...args];
  const asUser = uid === undefined ? {} : { uid, gid: uid, env: { ...process.env, TSX_DISABLE_CACHE: '1' } };
  const child = spawn(command[0], command.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...asUser });
  const exited = once(child, 'close').then(([code, signal]) => (code as number | null) ?? (signal as string));
  let out = '';
  let err = '';
  const onOutput = new Set<() => void>();
  child.stdout.on('data', (chunk) => {
    out += chunk;
    for (const check of onOutput) check();
  });
  child.stderr.on('data', (chunk) => (err += chunk));
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out);
        if (!match) return;
        onOutput.delete(check);
        resolve(match);
      };
      onOutput.add(check);
      check();
      void exited.then((code) => {
        onOutput.delete(check);
        reject(new Error(`dhi serve exited (${code}) before printing ${pattern}: ${err.trim()}`));
      }, reject);
    });
  const listening = async () => {
    const [, http, https] = await printed(BANNER);
    return { http, https };
  };
  return { child, exited, stdout: () => out, stderr: () => err, printed, listening };
}

/** `prefix`: a command that runs dhi serve (nsenter into a mount namespace: disk-full.ts). */
export async function startServe(db: string, https: boolean, extra: string[] = [], prefix: string[] = []): Promise<ServeProcess> {
  const serve = spawnServe(['--port', '0', '--https-port', https ? '0' : '-1', '--db', db, '--log-level', 'info', ...extra], { prefix });
  return { ...serve, ...(await serve.listening()) };
}

export const insecure = new Agent({ connect: { rejectUnauthorized: false }, connections: 64 });

/** The tenant admin's JWT (default password), for the control API's `X-Authorization: Bearer`. */
export async function tenantLogin(base: string, dispatcher?: Dispatcher): Promise<string> {
  const login = await request(`${base}/api/auth/login`, {
    method: 'POST', dispatcher, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'tenant@thingsboard.org', password: 'tenant' }),
  });
  const body = await login.body.text();
  if (login.statusCode !== 200) throw new Error(`logging in as tenant@thingsboard.org: ${login.statusCode} ${body}`);
  return (JSON.parse(body) as { token: string }).token;
}

/** Creates a device with this token through the control API (tenant admin, default password). */
export async function createDevice(base: string, token: string): Promise<void> {
  const jwt = await tenantLogin(base);
  const res = await request(`${base}/api/device?accessToken=${token}`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-authorization': `Bearer ${jwt}` }, body: JSON.stringify({ name: `bench-${token}`, type: 'default' }),
  });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`creating device ${token}: ${res.statusCode}`);
}

/**
 * How many of these telemetry timestamps (of the key `seq`) the database holds for the device with
 * `token`, as a server that opens it next serves them: through the store, whose read first folds what
 * the process left in the telemetry log.
 */
export async function storedTimestamps(db: string, token: string, timestamps: number[]): Promise<number> {
  if (timestamps.length === 0) return 0;
  const store = createSqliteStore(db);
  try {
    const device = store.deviceByToken(token);
    if (!device) return 0;
    const range = { keys: ['seq'], startTs: Math.min(...timestamps), endTs: Math.max(...timestamps) + 1, limit: timestamps.length, order: 'ASC' as const };
    const stored = new Set((await store.readTelemetry(device.id, (series) => series.range(range))).map((e) => e.ts));
    return timestamps.filter((ts) => stored.has(ts)).length;
  } finally {
    await store.close();
  }
}
