// `dhi serve --metrics`: the server's own figures in the Prometheus text format at GET /metrics,
// through prom-client (one registry per server, so that several servers in one process stay apart):
// requests by route and status with their latency, the polls and server RPCs held open, the size of each group
// commit, and Node's process metrics. Off by default; when off, no hook runs and nothing is counted.
//
// Requests are counted by one histogram (its _count per method, route and status), as Micrometer's
// http_server_requests_seconds does, and each route gets its own onResponse hook that knows its
// path pattern: reading request.routeOptions would build an object per request. The hot path costs
// two Map lookups and prom-client's observe().
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { LongPolls, PollKind } from './long-poll.js';
import type { RpcService } from './rpc-service.js';

export const METRICS_PATH = '/metrics';

/** Long polls answer up to their timeout (default 60 s, at most 300 s): the buckets reach that far. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Writes per committed transaction: one under light load, hundreds under a telemetry flood. */
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000];
const POLL_KINDS: readonly PollKind[] = ['attributes', 'rpc', 'clientRpc'];

export interface ServerMetrics {
  registry: Registry;
  /** The store's group commit calls this with the number of writes of each batch it commits. */
  commitBatch(writes: number): void;
  /** Counts every request, serves GET /metrics, and reads the open polls and RPCs when scraped. */
  register(app: FastifyInstance, polls: LongPolls, rpc: RpcService): void;
}

export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({ name: 'dhi_http_request_duration_seconds', help: 'Requests answered (_count) and the time from each one\'s arrival to its answer (a long poll\'s includes its wait), by method, route (the path pattern: no token) and status', labelNames: ['method', 'route', 'status'], buckets: LATENCY_BUCKETS, registers: [registry] });
  const batches = new Histogram({ name: 'dhi_store_commit_batch_writes', help: 'Writes committed together in one transaction and one fsync (group commit)', buckets: BATCH_BUCKETS, registers: [registry] });
  let polls: LongPolls | undefined;
  let rpcs: RpcService | undefined;
  new Gauge({
    name: 'dhi_open_polls',
    help: 'Long polls held open: attribute updates and server RPC (devices), device-side RPC waiting for a rule (clientRpc)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const open = polls?.size();
      for (const kind of POLL_KINDS) this.set({ kind }, open?.[kind] ?? 0);
    },
  });
  new Gauge({
    name: 'dhi_open_rpcs',
    help: 'Server-side RPCs live in memory: queued for a poll, and delivered two-way ones awaiting the device\'s reply',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const open = rpcs?.size();
      this.set({ state: 'queued' }, open?.queued ?? 0);
      this.set({ state: 'awaiting' }, open?.awaiting ?? 0);
    },
  });

  type Observer = ReturnType<typeof duration.labels>;
  /** The route's histogram child per method and status, made on first use. */
  const observerFor = (route: string) => {
    const byMethod = new Map<string, Map<number, Observer>>();
    return (request: FastifyRequest, reply: FastifyReply): void => {
      let byStatus = byMethod.get(request.method);
      if (!byStatus) byMethod.set(request.method, (byStatus = new Map()));
      let observer = byStatus.get(reply.statusCode);
      if (!observer) byStatus.set(reply.statusCode, (observer = duration.labels({ method: request.method, route, status: reply.statusCode })));
      observer.observe(reply.elapsedTime / 1000);
    };
  };
  const hookFor = (route: string): onResponseHookHandler => {
    const observe = observerFor(route);
    return (request, reply, done) => {
      observe(request, reply);
      done();
    };
  };
  // Requests no route matched (404, 405) pass only the root's hooks.
  const unmatched = observerFor('(no route)');
  const onUnmatched: onResponseHookHandler = (request, reply, done) => {
    if (request.is404) unmatched(request, reply);
    done();
  };

  return {
    registry,
    commitBatch: (writes) => batches.observe(writes),
    register(app, open, rpc) {
      polls = open;
      rpcs = rpc;
      app.addHook('onRoute', (route) => {
        if (route.url === METRICS_PATH) return;
        route.onResponse = [...[route.onResponse ?? []].flat(), hookFor(route.url)];
      });
      app.addHook('onResponse', onUnmatched);
      app.get(METRICS_PATH, async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
    },
  };
}
