// `dhi serve` as a child process for the benchmarks: start on free ports with a database that
// survives the process, log in and create devices through the control API, count stored rows.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createSqliteStore } from '../store/sqlite.js';
import { Agent, request, type Dispatcher } from 'undici';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface ServeProcess {
  child: ChildProcess;
  http: string;
  https?: string;
  /** Resolves with the exit code (or the signal's name) once the process has gone. */
  exited: Promise<number | string>;
}

/** `prefix`: a command that runs dhi serve (nsenter into a mount namespace: disk-full.ts). */
export async function startServe(db: string, https: boolean, extra: string[] = [], prefix: string[] = []): Promise<ServeProcess> {
  const command = [...prefix, process.execPath, '--import', 'tsx', join(ROOT, 'bin', 'dhi.ts'), 'serve', '--port', '0',
    '--https-port', https ? '0' : '-1', '--db', db, '--log-level', 'info', ...extra];
  const child = spawn(command[0], command.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit').then(([code, signal]) => (code as number | null) ?? (signal as string));
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.resume();
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => out.includes('device API on') && resolve());
    void exited.then((code) => reject(new Error(`dhi serve exited early (${code})`)));
  });
  const [, http, httpsUrl] = /device API on (http:\/\/\S+)(?: and (https:\/\/\S+))?/.exec(out)!;
  return { child, http, https: httpsUrl, exited };
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
