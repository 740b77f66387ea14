// `dhi serve` as a child process for the robustness benchmark: start on free ports with a database
// that survives the process, create devices through the control API, kill it, count stored rows.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';

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

/** Creates a device with this token through the control API (tenant admin, default password). */
export async function createDevice(base: string, token: string): Promise<void> {
  const login = await request(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'tenant@thingsboard.org', password: 'tenant' }) });
  const { token: jwt } = (await login.body.json()) as { token: string };
  const res = await request(`${base}/api/device?accessToken=${token}`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-authorization': `Bearer ${jwt}` }, body: JSON.stringify({ name: `bench-${token}`, type: 'default' }),
  });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`creating device ${token}: ${res.statusCode}`);
}

/** How many of these telemetry timestamps the database holds for the device with `token`. */
export function storedTimestamps(db: string, token: string, timestamps: number[]): number {
  const store = new Database(db, { readonly: true });
  try {
    const rows = store.prepare('SELECT t.ts FROM telemetry t JOIN devices d ON d.num = t.device WHERE d.token = ?').all(token) as { ts: number }[];
    const stored = new Set(rows.map((r) => r.ts));
    return timestamps.filter((ts) => stored.has(ts)).length;
  } finally {
    store.close();
  }
}
