// The bench's bare durable routes (dhi bench --baseline, telemetry): Fastify and SQLite inserts, with
// the requests that arrive while a batch commits committed together in one transaction (group
// commit), synchronous=FULL, and each request answered 200 only once the COMMIT holding it is on disk.
// The commit runs on the event loop, as the plain way to write it does; while it syncs, the next batch
// gathers. No access-token lookup, lossless JSON, validation, latest values, device state or worker
// thread. Two layouts:
// - 'message': the body whole, one row per request: what durability alone costs beside the bare route;
// - 'keys': each key's value a row of a table keyed by (token, key, ts), the plain way to keep time
//   series that can be read by device, key and time, as the contract's reads need: what durable and
//   queryable costs.
import Database from 'better-sqlite3';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';

/** How a durable route keeps a request (above). */
export type DurableLayout = 'message' | 'keys';

const TABLES: Record<DurableLayout, string> = {
  message: 'CREATE TABLE IF NOT EXISTS telemetry (token TEXT NOT NULL, ts INTEGER NOT NULL, body TEXT NOT NULL)',
  keys: `CREATE TABLE IF NOT EXISTS telemetry_kv (token TEXT NOT NULL, key TEXT NOT NULL, ts INTEGER NOT NULL, value,
    PRIMARY KEY (token, key, ts)) WITHOUT ROWID`,
};

/** A JSON value as SQLite binds it: a boolean as 0 or 1, an object or array as its JSON text. */
const cell = (value: unknown) => (typeof value === 'boolean' ? Number(value) : typeof value === 'object' && value !== null ? JSON.stringify(value) : value);

export interface DurableRoute {
  app: FastifyInstance;
  /** Transactions committed so far. */
  batches(): number;
}

/** A connection to `path` as the route writes with it: WAL, synchronous=FULL (COMMIT returns once the WAL is synced). */
export function openDurableDb(path: string, layout: DurableLayout = 'message'): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(TABLES[layout]);
  return db;
}

/** How a layout inserts a queued request, whose body is as the route queued it: its text ('message') or parsed ('keys'). */
function inserter(db: Database.Database, layout: DurableLayout): (token: string, ts: number, body: unknown) => void {
  if (layout === 'message') {
    const insert = db.prepare('INSERT INTO telemetry (token, ts, body) VALUES (?, ?, ?)');
    return (token, ts, body) => insert.run(token, ts, body);
  }
  // A key sent twice within one millisecond keeps its later value, as a time series by (key, ts) does.
  const insert = db.prepare('INSERT OR REPLACE INTO telemetry_kv (token, key, ts, value) VALUES (?, ?, ?, ?)');
  return (token, ts, body) => {
    const values = body as Record<string, unknown>;
    for (const key in values) insert.run(token, key, ts, cell(values[key]));
  };
}

/** The route on the SQLite file `path` (created when missing); the app closes the file when it closes. */
export function durableRoute(path: string, layout: DurableLayout = 'message'): DurableRoute {
  const db = openDurableDb(path, layout);
  const insert = inserter(db, layout);
  const asText = layout === 'message';
  const [begin, commit, rollback] = ['BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK'].map((sql) => db.prepare(sql));
  // One entry of each per queued request (no object per request).
  const tokens: string[] = [];
  const bodies: unknown[] = [];
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
      for (let i = 0; i < count; i++) insert(tokens[i], now, bodies[i]);
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
    bodies.push(asText ? JSON.stringify(request.body) : request.body);
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
