import { statSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createGroupCommit } from '../store/group-commit.js';
import { createSqliteStore } from '../store/sqlite.js';
import { openDatabase, WAL_CHECKPOINT_PAGES } from '../store/sqlite-connection.js';
import { newDevice } from '../device-records.js';
import { connectRaw, statusOf } from '../../conformance/raw-socket.js';
import { spawnServe } from '../bench/serve-process.js';
import { call, checked, createDevice, startTestServer, stopTestServer, storedRows, tempDir, writeTelemetry, type TestServer } from './helpers.js';

const rpcCommand = { method: 'm', params: '{}', oneway: true, persistent: false, retries: 0, additionalInfo: null };
let running: TestServer | undefined;
afterEach(async () => {
  if (running) await stopTestServer(running);
  running = undefined;
});

describe('restart persistence', () => {
  it('keeps devices, telemetry, attributes and the RPC id counter across a restart on the same file', async () => {
    const dir = tempDir();
    const first = await startTestServer({}, dir);
    const device = await createDevice(first.ctx);
    await call(first.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { ts: 1000, values: { t: 21.5 } });
    await call(first.httpUrl, 'POST', `/api/v1/${device.token}/attributes`, { fw: 'v1.0' });
    const ids = [];
    for (let i = 0; i < 2; i++) ids.push((await first.ctx.rpc.submit(device, { ...rpcCommand, expirationTime: Date.now() + 1000 })).rpc.requestId);
    await stopTestServer(first, false);

    running = await startTestServer({}, dir);
    expect(await running.ctx.store.readTelemetry(device.id, (s) => s.latest())).toEqual([{ key: 't', ts: 1000, type: 'DOUBLE', value: 21.5 }]);
    const read = await call(running.httpUrl, 'GET', `/api/v1/${device.token}/attributes?clientKeys=fw`);
    expect(read.json()).toEqual({ client: { fw: 'v1.0' } });
    const next = await running.ctx.rpc.submit(device, { ...rpcCommand, expirationTime: Date.now() + 1000 });
    expect(ids).toEqual([0, 1]);
    expect(next.rpc.requestId).toBe(2);
  });

  it('delivers a persistent command queued before a restart at the first poll after it', async () => {
    const dir = tempDir();
    const first = await startTestServer({}, dir);
    const device = await createDevice(first.ctx);
    const { rpc } = await first.ctx.rpc.submit(device, { ...rpcCommand, persistent: true, expirationTime: Date.now() + 60_000 });
    await stopTestServer(first, false);
    running = await startTestServer({}, dir);
    const res = await call(running.httpUrl, 'GET', `/api/v1/${device.token}/rpc?timeout=60000`);
    expect(res.json()).toMatchObject({ id: rpc.requestId, method: 'm' });
  });
});

describe('group commit', () => {
  it('runs the writes of one event-loop turn in one transaction and answers after its commit', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    const group = createGroupCommit(db);
    const events: string[] = [];
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const writes = [1, 2, 3].map((v) =>
      group.write((value: number) => {
        events.push(`run ${value} in transaction=${db.inTransaction}`);
        insert.run(value);
      }, v).then(() => events.push(`answered ${v}`)));
    await Promise.all(writes);
    expect(events).toEqual([
      'run 1 in transaction=true', 'run 2 in transaction=true', 'run 3 in transaction=true',
      'answered 1', 'answered 2', 'answered 3',
    ]);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 3 });
  });

  it('rolls back a failing write alone, keeping the others of its batch', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    const group = createGroupCommit(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const results = await Promise.allSettled([
      group.write((v: number) => insert.run(v), 1),
      group.write(() => {
        insert.run(2);
        insert.run(null);
      }),
      group.write((v: number) => insert.run(v), 3),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT v FROM t ORDER BY v').all()).toEqual([{ v: 1 }, { v: 3 }]);
  });
  it('on a file database, runs the writes that arrive while a batch commits as the next batch', async () => {
    const path = join(tempDir(), 'group.db');
    const db = openDatabase(path);
    db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    const group = createGroupCommit(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const events: string[] = [];
    let second: Promise<unknown> | undefined;
    const first = group.write(() => {
      insert.run(1);
      events.push('run 1');
      second = group.write(() => {
        insert.run(2);
        events.push('run 2');
      }).then(() => events.push('answered 2'));
    }).then(() => events.push('answered 1'));
    await first;
    await second;
    expect(events).toEqual(['run 1', 'answered 1', 'run 2', 'answered 2']);
    await group.close();
    db.close();
    const reopened = new Database(path);
    expect(reopened.prepare('SELECT v FROM t ORDER BY v').all()).toEqual([{ v: 1 }, { v: 2 }]);
    reopened.close();
  });

  it('commits the writes still queued when it is closed', async () => {
    const path = join(tempDir(), 'group.db');
    const db = openDatabase(path);
    db.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    const group = createGroupCommit(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const written = [1, 2].map((v) => group.write((value: number) => insert.run(value), v));
    await group.close();
    await Promise.all(written);
    db.close();
    const reopened = new Database(path);
    expect(reopened.prepare('SELECT v FROM t ORDER BY v').all()).toEqual([{ v: 1 }, { v: 2 }]);
    reopened.close();
  });
});

describe('WAL checkpoints', () => {
  it(`let the WAL grow to a fold of every row or ${WAL_CHECKPOINT_PAGES} pages, then copy it into the database file, reuse it and cut it back`, async () => {
    const path = join(tempDir(), 'wal.db');
    const store = createSqliteStore(path);
    const devices = Array.from({ length: 100 }, (_, i) => newDevice({ name: `wal-${i}`, profileId: store.defaultProfile().id }));
    await store.write(() => devices.forEach((d) => store.insertDevice(d)));
    // A WAL file is a 32-byte header and frames of a 24-byte header and a page.
    const reader = new Database(path, { readonly: true });
    const pageSize = reader.pragma('page_size', { simple: true }) as number;
    reader.close();
    const walPages = () => (statSync(`${path}-wal`).size - 32) / (pageSize + 24);
    const dbBytes = () => statSync(path).size;
    let ts = 0;
    // One batch: a message of sixteen values from every device (~12 pages appended to the telemetry
    // log, and a page of the telemetry table per device and key at each fold).
    const keys = Array.from({ length: 16 }, (_, i) => `k${i}`);
    const batch = () => Promise.all(devices.map((d) => writeTelemetry(store, d.id, keys.map((key) => ({ key, type: 'LONG' as const, value: ++ts, ts })))));
    // Bounded loops: a WAL that never reaches the pages awaited fails an assertion, not the timeout.
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 500 && !done(); i++) await batch();
    };
    try {
      const before = dbBytes();
      await until(() => walPages() >= 1500);
      // Past SQLite's default of 1,000 pages, and nothing copied yet.
      expect(walPages()).toBeGreaterThanOrEqual(1500);
      expect(dbBytes()).toBe(before);
      // Copied after the first fold of every row (60,000 rows here: by the telemetry worker's checkpoint
      // thread, wal-checkpointer.ts), or by the COMMIT that crosses the threshold, whichever comes first.
      await until(() => dbBytes() > before);
      expect(dbBytes()).toBeGreaterThan(before);
      expect(walPages()).toBeGreaterThanOrEqual(1500);
      // Then written again from its beginning: twice as many messages again (twice as many pages)
      // leave the file below twice the threshold.
      const target = 3 * ts;
      await until(() => ts >= target);
      expect(ts).toBeGreaterThanOrEqual(target);
      expect(walPages()).toBeLessThan(2 * WAL_CHECKPOINT_PAGES);
      // One transaction of ~10,000 pages (a 4 KB attribute on each of 100 devices, 100 times over)
      // grows the file past twice the threshold; after the next checkpoint the file is cut back to
      // the threshold (journal_size_limit), where SQLite alone keeps it at its high-water mark.
      const value = 'x'.repeat(4000);
      await store.write(() => {
        for (let i = 0; i < 100; i++) devices.forEach((d) => store.upsertAttributes(d.id, 'SERVER_SCOPE', [{ key: `big${i}`, type: 'STRING', value, ts: 1 }]));
      });
      expect(walPages()).toBeGreaterThan(2 * WAL_CHECKPOINT_PAGES);
      const grown = dbBytes();
      await until(() => dbBytes() > grown && walPages() <= WAL_CHECKPOINT_PAGES + 200);
      expect(walPages()).toBeLessThanOrEqual(WAL_CHECKPOINT_PAGES + 200);
    } finally {
      await store.close();
    }
  });
});

describe('HTTPS', () => {
  it('serves the device API over HTTPS with a generated self-signed certificate', async () => {
    running = await startTestServer({ httpsPort: 0 });
    expect(running.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const device = await createDevice(running.ctx);
    const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
    const path = `/api/v1/${device.token}/telemetry`;
    const res = await checked('POST', path, await request(running.httpsUrl + path, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' }, dispatcher }));
    expect(res.status).toBe(200);
    await dispatcher.close();
    expect(await storedRows(running.ctx.store, running.dbPath, device.id)).toBe(1);
  });
});

/** `dhi serve` in a child process on free ports with one device (token `sigtoken`) in its database. */
async function serveWithDevice(args: string[]) {
  const dir = tempDir();
  const db = join(dir, 'dhi.db');
  const serve = spawnServe(['--host', '127.0.0.1', '--port', '0', '--db', db, ...args]);
  const { http, https } = await serve.listening();
  const store = new Database(db);
  const profileId = (store.prepare('SELECT id FROM device_profiles WHERE is_default = 1').get() as { id: string }).id;
  store.prepare(`INSERT INTO devices (id, name, type, token, profile_id, created_time) VALUES ('d1', 'sig', 'default', 'sigtoken', ?, 0)`).run(profileId);
  store.close();
  const storedRows = () => {
    const after = new Database(db, { readonly: true });
    const { n } = after.prepare(`SELECT count(*) AS n FROM telemetry WHERE device = (SELECT num FROM devices WHERE id = 'd1')`).get() as { n: number };
    after.close();
    return n;
  };
  return { child: serve.child, http, https, storedRows, printed: serve.printed };
}

describe('dhi serve process', () => {
  it('answers open polls and exits 0 on SIGTERM, keeping accepted writes', async () => {
    const { child, http: base, storedRows } = await serveWithDevice(['--https-port', '-1', '--log-level', 'warn']);
    expect((await call(base, 'POST', '/api/v1/sigtoken/telemetry', { a: 1 })).status).toBe(200);
    const poll = call(base, 'GET', '/api/v1/sigtoken/rpc?timeout=60000');
    // The poll is open once the server has parsed it; a telemetry write after it proves ordering.
    expect((await call(base, 'POST', '/api/v1/sigtoken/telemetry', { b: 2 })).status).toBe(200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect((await poll).status).toBe(408);
    expect(code).toBe(0);
    expect(storedRows()).toBe(2);
  });

  it('drains an HTTPS body still arriving at SIGTERM: 200 and stored, then exit 0', async () => {
    const { child, https, storedRows, printed } = await serveWithDevice(['--https-port', '0', '--log-level', 'info']);
    const body = JSON.stringify({ during: 'shutdown', pad: 'x'.repeat(2000) });
    const upload = await connectRaw(https!);
    await upload.write(`POST /api/v1/sigtoken/telemetry HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    await upload.write(body.slice(0, 1000));
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await printed(/shutting down/);
    await upload.write(body.slice(1000));
    await upload.closed;
    const [code] = await exited;
    expect(statusOf(upload.received())).toBe(200);
    expect(code).toBe(0);
    expect(storedRows()).toBe(2); // one row per key
  });
});
