// The bare durable routes of dhi bench --baseline: every acknowledged request is committed (its body
// whole, or each key's value by token, key and time), requests arriving together share a transaction,
// and a batch that fails is refused whole.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { durableRoute, openDurableDb, type DurableLayout, type DurableRoute } from '../bench-durable.js';

describe('the bench’s bare durable route', () => {
  let dir: string;
  let path: string;
  let route: DurableRoute | undefined;
  // One connection per request, so that the requests arrive together rather than one after another.
  const agent = new Agent({ connections: 64, pipelining: 1 });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dhi-durable-'));
    path = join(dir, 'bare.db');
  });
  afterEach(async () => {
    await route?.app.close();
    route = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function listen(layout: DurableLayout = 'message'): Promise<string> {
    route = durableRoute(path, layout);
    return route.app.listen({ host: '127.0.0.1', port: 0 });
  }

  const post = (url: string, token: string, body: string) =>
    request(`${url}/api/v1/${token}/telemetry`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent })
      .then(async (response) => ({ status: response.statusCode, text: await response.body.text() }));

  it('writes through WAL with synchronous=FULL', () => {
    const db = openDurableDb(path);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
    } finally {
      db.close();
    }
  });

  it('answers 200 only once the request is committed, with requests that arrive together in one transaction', async () => {
    const url = await listen();
    const reader = new Database(path, { readonly: true });
    const stored = reader.prepare('SELECT count(*) FROM telemetry WHERE token = ? AND body = ?').pluck();
    try {
      // The connections open first (a request on each), so that the 40 requests below leave together.
      await Promise.all(Array.from({ length: 40 }, () => post(url, 'warm-up', '{}')));
      const before = route!.batches();
      const sent = Array.from({ length: 40 }, (_, n) => ({ token: `T${n % 4}`, body: JSON.stringify({ n, level: n / 10 }) }));
      const seen = await Promise.all(sent.map(({ token, body }) =>
        // Another connection sees the row as soon as the answer is in: its COMMIT came first.
        post(url, token, body).then((answer) => ({ ...answer, stored: stored.get(token, body) }))));
      expect(seen.map((s) => s.status)).toEqual(sent.map(() => 200));
      expect(seen.map((s) => s.stored)).toEqual(sent.map(() => 1));
      expect(reader.prepare("SELECT count(*) FROM telemetry WHERE token <> 'warm-up'").pluck().get()).toBe(40);
      expect(route!.batches() - before).toBeGreaterThanOrEqual(1);
      expect(route!.batches() - before).toBeLessThan(40);
    } finally {
      reader.close();
    }
  });

  it('keeps each key of an acknowledged request as a row by token, key and time (the indexed layout)', async () => {
    const url = await listen('keys');
    const reader = new Database(path, { readonly: true });
    const values = reader.prepare('SELECT key, value FROM telemetry_kv WHERE token = ? ORDER BY key').raw();
    try {
      await Promise.all(Array.from({ length: 20 }, () => post(url, 'warm-up', '{}')));
      const sent = Array.from({ length: 20 }, (_, n) => ({ token: `T${n}`, body: { n, on: n % 2 === 1, level: n / 10, tags: ['a', n] } }));
      const seen = await Promise.all(sent.map(({ token, body }) =>
        post(url, token, JSON.stringify(body)).then((answer) => ({ ...answer, stored: values.all(token) }))));
      expect(seen.map((s) => s.status)).toEqual(sent.map(() => 200));
      // Seen by another connection as soon as answered; booleans as 0/1, arrays as their JSON text.
      expect(seen.map((s) => s.stored)).toEqual(sent.map(({ body }) =>
        [['level', body.level], ['n', body.n], ['on', Number(body.on)], ['tags', JSON.stringify(body.tags)]]));
      expect(reader.prepare('SELECT count(DISTINCT ts) FROM telemetry_kv WHERE token = ?').pluck().get('T3')).toBe(1);
    } finally {
      reader.close();
    }
  });

  it('refuses every request of a batch whose transaction fails with 503, keeping none of them', async () => {
    // A table made beforehand that refuses one body: the insert of it fails inside the batch.
    const setup = new Database(path);
    setup.exec("CREATE TABLE telemetry (token TEXT NOT NULL, ts INTEGER NOT NULL, body TEXT NOT NULL CHECK (body NOT LIKE '%refused%'))");
    setup.close();
    const url = await listen();
    const bodies = Array.from({ length: 12 }, (_, n) => JSON.stringify(n === 5 ? { refused: n } : { n }));
    const answers = await Promise.all(bodies.map((body) => post(url, 'T', body)));
    expect(answers[5].status).toBe(503);
    expect(JSON.parse(answers[5].text).error).toMatch(/^the batch was not committed: CHECK constraint failed/);
    const reader = new Database(path, { readonly: true });
    try {
      const kept = new Set(reader.prepare('SELECT body FROM telemetry').pluck().all());
      // Stored exactly when acknowledged: the refused body's batch-mates went with it.
      expect(bodies.filter((_, n) => answers[n].status === 200)).toEqual([...kept]);
      for (const answer of answers) expect([200, 503]).toContain(answer.status);
    } finally {
      reader.close();
    }
  });
});
