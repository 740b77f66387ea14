// Start-up faults of the store's file are one clear line, exit 3, and the file unchanged: a file that
// is not a database, a database of a newer schema or of another program, a path that cannot hold a
// database, and a database held by another `dhi serve` (store/sqlite-file.ts). The lock dies with its
// process, kill -9 included.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../store/sqlite.js';
import { SCHEMA_VERSION } from '../store/sqlite-schema.js';
import { StoreFileError } from '../store/types.js';
import { spawnServe } from '../bench/serve-process.js';
import { call, createDevice, startTestServer, stopTestServer, tempDir, type TestServer } from './helpers.js';

/** The user id of nobody (Debian, and most systems). */
const NOBODY = 65534;
let running: TestServer | undefined;
afterEach(async () => {
  if (running) await stopTestServer(running);
  running = undefined;
});

/** `dhi serve` on this database (as the user `uid`) until it prints its banner (then it is stopped) or exits. */
async function serve(db: string, uid?: number): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const run = spawnServe(['--port', '0', '--https-port', '-1', '--db', db], { uid });
  run.listening().then(() => run.child.kill('SIGTERM'), () => {});
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/**
 * The bytes of every file in the folder, to show that a refused start changed nothing. A read-only
 * look at a database in WAL mode leaves SQLite's -wal and -shm files (its index, not the data).
 */
function snapshot(dir: string): Record<string, string> {
  const files = readdirSync(dir, { withFileTypes: true }).filter((f) => f.isFile() && !/-(wal|shm)$/.test(f.name));
  return Object.fromEntries(files.map((f) => [f.name, createHash('sha256').update(readFileSync(join(dir, f.name))).digest('hex')]));
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** What opening the store says about this file; its folder, if it has one, must be as it was. */
function refusal(path: string): string {
  const dir = dirname(path);
  const before = isFolder(dir) ? snapshot(dir) : undefined;
  let error: unknown;
  try {
    createSqliteStore(path);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(StoreFileError);
  if (before) expect(snapshot(dir)).toEqual(before);
  return (error as Error).message;
}

/** A database as dhi leaves it, closed. */
async function dhiDatabase(): Promise<string> {
  const path = join(tempDir(), 'dhi.db');
  await createSqliteStore(path).close();
  return path;
}

describe('the store file at start-up', () => {
  it('refuses a file that is not a database: one line, exit 3, the file and its folder unchanged', async () => {
    const dir = tempDir();
    const path = join(dir, 'garbage.db');
    writeFileSync(path, 'this is a shopping list, not a database\n'.repeat(200));
    const before = snapshot(dir);
    const run = await serve(path);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      `dhi serve: the database ${path} is not a SQLite database; give --db a new path, or the file of an earlier dhi serve`,
    ]);
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses a database of a newer schema, and one of another program', async () => {
    const newer = await dhiDatabase();
    const raw = new Database(newer);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(refusal(newer)).toBe(`the database ${newer} has schema version ${SCHEMA_VERSION + 1}, newer than this dhi knows (${SCHEMA_VERSION}): a newer dhi wrote it; run that dhi, or give --db another file`);

    const foreign = join(tempDir(), 'notes.db');
    const other = new Database(foreign);
    other.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')");
    other.close();
    expect(refusal(foreign)).toBe(`the database ${foreign} is a SQLite database of another program (it has tables and no dhi schema version); dhi does not change it: give --db a new path`);
  });

  it('refuses a path that cannot hold a database: a folder, and a file under a file', () => {
    const folder = join(tempDir(), 'a-folder');
    mkdirSync(folder);
    expect(refusal(folder)).toBe(`the database ${folder} is a folder, not a file; give --db the path of a database file`);
    const file = join(tempDir(), 'plain.txt');
    writeFileSync(file, 'text');
    const under = join(file, 'dhi.db');
    expect(refusal(under)).toBe(`the database ${under} cannot be kept in ${file}: that is a file, not a folder; give --db a path in a folder`);
    const deeper = join(file, 'data', 'dhi.db');
    expect(refusal(deeper)).toBe(`the database ${deeper} cannot be kept in ${join(file, 'data')}: that folder cannot be made or written (ENOTDIR); give --db a path in a folder this user can write`);
  });

  it('refuses a database this user cannot read and write, or in a folder it cannot write', async () => {
    const path = await dhiDatabase();
    const folder = dirname(path);
    const closed = `the database ${path} cannot be read and written by this user (EACCES); give this user read and write access to it, or give --db another file`;
    const readOnlyFolder = `the database ${path} cannot be kept in ${folder}: that folder cannot be made or written (EACCES); give --db a path in a folder this user can write`;
    if (process.getuid?.() !== 0) {
      chmodSync(path, 0o000);
      expect(refusal(path)).toBe(closed);
      chmodSync(path, 0o600);
      chmodSync(folder, 0o500);
      expect(refusal(path)).toBe(readOnlyFolder);
      chmodSync(folder, 0o700);
      return;
    }
    // As root every file is open: dhi serve runs as nobody, to whom the file is closed.
    const before = readFileSync(path);
    chmodSync(path, 0o600);
    for (const [mode, line] of [[0o755, readOnlyFolder], [0o777, closed]] as const) {
      chmodSync(folder, mode);
      const run = await serve(path, NOBODY);
      expect(run.stderr.trim().split('\n')).toEqual([`dhi serve: ${line}`]);
      expect(run.code).toBe(3);
    }
    expect(readFileSync(path)).toEqual(before);
  });

  it('refuses a second dhi serve on the file of a running one, which goes on serving', async () => {
    running = await startTestServer();
    const device = await createDevice(running.ctx);
    const run = await serve(running.dbPath);
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split('\n')).toEqual([
      `dhi serve: the database ${running.dbPath} is in use by another dhi serve (it holds ${running.dbPath}-lock); stop that server first, or give --db another file`,
    ]);
    // Within one process too: a second store on the file is refused.
    expect(() => createSqliteStore(running!.dbPath)).toThrow(StoreFileError);
    expect((await call(running.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { a: 1 })).status).toBe(200);
  });

  it('takes over the file of a dhi serve that was killed with kill -9', async () => {
    const dir = tempDir();
    const db = join(dir, 'dhi.db');
    const killed = spawnServe(['--port', '0', '--https-port', '-1', '--db', db]);
    await killed.listening();
    killed.child.kill('SIGKILL');
    await killed.exited;
    running = await startTestServer({}, dir);
    expect((await call(running.httpUrl, 'GET', '/api/noauth/userPasswordPolicy')).status).toBe(200);
  });
});
