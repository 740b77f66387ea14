import { createServer, type Server } from 'node:net';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../server.js';
import { ListenError } from '../listeners.js';
import { banner, exposureWarning } from '../cli.js';
import { validateConfig } from '../config.js';
import { spawnServe } from '../bench/serve-process.js';
import { tempDir } from './helpers.js';
import { createSqliteStore } from '../store/sqlite.js';

const held: Server[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function takePort(): Promise<number> {
  const s = createServer();
  held.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return (s.address() as { port: number }).port;
}

/** A port nobody listens on now (it was free a moment ago). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise((resolve) => s.close(resolve));
  return port;
}

async function canListen(port: number): Promise<boolean> {
  const s = createServer();
  const ok = await new Promise<boolean>((resolve) => {
    s.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true));
  });
  if (ok) await new Promise((resolve) => s.close(resolve));
  return ok;
}

describe('a taken port', () => {
  it('fails with one line naming the port and --port when the HTTP port is taken', async () => {
    const taken = await takePort();
    const error = await startServer({ host: '127.0.0.1', port: taken, httpsPort: -1, db: ':memory:', logLevel: 'silent' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListenError);
    expect((error as Error).message).toBe(`cannot listen on 127.0.0.1:${taken} (--port): the port is already in use`);
  });

  it('leaves no HTTP listener when the HTTPS port is taken, and dhi serve exits 1 with one line', async () => {
    const taken = await takePort();
    const httpPort = await freePort();
    const run = spawnServe(['--port', String(httpPort), '--https-port', String(taken), '--db', join(tempDir(), 'dhi.db')]);
    expect(await run.exited).toBe(1);
    expect(run.stderr().trim().split('\n')).toEqual([`dhi serve: cannot listen on 127.0.0.1:${taken} (--https-port): the port is already in use`]);
    expect(await canListen(httpPort)).toBe(true);
  });
});

describe('start-up banner', () => {
  const running = { httpUrl: 'http://127.0.0.1:8080', httpsUrl: 'https://127.0.0.1:8443' } as Parameters<typeof banner>[0];

  it('names the database with its size and how long values are kept', async () => {
    const db = join(tempDir(), 'dhi.db');
    const store = createSqliteStore(db);
    await store.close();
    const size = `${(statSync(db).size / 1_048_576).toFixed(1)} MB`;
    expect(banner(running, validateConfig({ db }))).toContain(`  database   ${db} (${size} + 0.0 MB WAL; values kept forever: --ttl); request logs: --log-level debug; stop: Ctrl-C`);
    expect(banner(running, validateConfig({ db, ttlSeconds: 86_400 }))).toContain(`  database   ${db} (${size} + 0.0 MB WAL; values kept 86400 s); request logs: --log-level debug; stop: Ctrl-C`);
  });

  it('names the URLs, the docs and the login', () => {
    const text = banner(running, validateConfig({})).join('\n');
    expect(text).toContain('device API on http://127.0.0.1:8080 and https://127.0.0.1:8443');
    expect(text).toContain('http://127.0.0.1:8080/docs');
    expect(text).toContain('tenant@thingsboard.org / tenant');
    expect(text).toContain('/api/auth/login');
  });

  it('listens on 127.0.0.1 by default and warns only for all interfaces with the default password', () => {
    expect(validateConfig({}).host).toBe('127.0.0.1');
    expect(exposureWarning(validateConfig({}))).toBeUndefined();
    expect(exposureWarning(validateConfig({ host: '0.0.0.0' }))).toContain('--host 0.0.0.0');
    expect(exposureWarning(validateConfig({ host: '::' }))).toContain('default password');
    expect(exposureWarning(validateConfig({ host: '0.0.0.0', adminPassword: 's3cret' }))).toBeUndefined();
  });
});
