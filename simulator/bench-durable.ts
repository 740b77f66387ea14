// The bench's bare durable route (dhi bench --baseline, telemetry): Fastify and one SQLite insert per
// request, with the inserts that arrive while a batch commits committed together in one transaction
// (group commit), synchronous=FULL, and each request answered 200 only once the COMMIT holding it is
// on disk. It is what durability alone costs beside the bare route: no access-token lookup, lossless
// JSON, validation, key-value rows, latest values, device state or worker thread. The commit runs on
// the event loop, as the plain way to write it does; while it syncs, the next batch gathers.
import Database from 'better-sqlite3';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';

export interface DurableRoute {
  app: FastifyInstance;
  /** Transactions committed so far. */
  batches(): number;
}

/** A connection to `path` as the route writes with it: WAL, synchronous=FULL (COMMIT returns once the WAL is synced). */
export function openDurableDb(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS telemetry (token TEXT NOT NULL, ts INTEGER NOT NULL, body TEXT NOT NULL)');
  return db;
}

/** The route on the SQLite file `path` (created when missing); the app closes the file when it closes. */
export function durableRoute(path: string): DurableRoute {
  const db = openDurableDb(path);
  const insert = db.prepare('INSERT INTO telemetry (token, ts, body) VALUES (?, ?, ?)');
  const [begin, commit, rollback] = ['BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK'].map((sql) => db.prepare(sql));
  // One entry of each per queued request (no object per request).
  const tokens: string[] = [];
  const bodies: string[] = [];
  const replies: FastifyReply[] = [];
  let scheduled = false;
  let committed = 0;

  /** Commits what is queued and answers it: 200 once on disk, or 503 for every request of a batch that failed. */
  function flush(): void {
    scheduled = false;
    const count = replies.length;
    const now = Date.now();
    let failure: Error | undefined;
    try {
      begin.run();
      for (let i = 0; i < count; i++) insert.run(tokens[i], now, bodies[i]);
      commit.run();
      committed++;
    } catch (error) {
      if (db.inTransaction) rollback.run();
      failure = error as Error;
    }
    // Nothing is queued while this runs (it is synchronous): the whole queue is this batch.
    for (let i = 0; i < count; i++) {
      if (failure) replies[i].code(503).send({ error: `the batch was not committed: ${failure.message}` });
      else replies[i].code(200).send();
    }
    tokens.length = bodies.length = replies.length = 0;
  }

  const app = Fastify({ logger: false });
  app.post('/api/v1/:token/telemetry', (request, reply) => {
    tokens.push((request.params as { token: string }).token);
    bodies.push(JSON.stringify(request.body));
    replies.push(reply);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
    return reply;
  });
  app.addHook('onClose', (_app, done) => {
    if (replies.length > 0) flush();
    db.close();
    done();
  });
  return { app, batches: () => committed };
}
