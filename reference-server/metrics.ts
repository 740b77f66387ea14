// `dhi serve --metrics`: the server's own figures in the Prometheus text format at GET /metrics,
// through prom-client (one registry per server, so that several servers in one process stay apart):
// requests by route and status with their latency, the polls held open, the size of each group
// commit, and Node's process metrics. Off by default; when off, no hook runs and nothing is counted.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LongPolls, PollKind } from './long-poll.js';

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
  /** Counts every request, serves GET /metrics, and reads the open polls when scraped. */
  register(app: FastifyInstance, polls: LongPolls): void;
}

export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'dhi_http_requests_total', help: 'Requests answered, by method, route (the path pattern, tokens left out) and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({ name: 'dhi_http_request_duration_seconds', help: 'Time from a request\'s arrival to its answer (a long poll\'s includes its wait), by method and route', labelNames: ['method', 'route'], buckets: LATENCY_BUCKETS, registers: [registry] });
  const batches = new Histogram({ name: 'dhi_store_commit_batch_writes', help: 'Writes committed together in one transaction and one fsync (group commit)', buckets: BATCH_BUCKETS, registers: [registry] });
  let polls: LongPolls | undefined;
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

  const onResponse = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const route = request.routeOptions.url ?? '(no route)';
    if (route !== METRICS_PATH) {
      requests.inc({ method: request.method, route, status: reply.statusCode });
      duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    }
    done();
  };

  return {
    registry,
    commitBatch: (writes) => batches.observe(writes),
    register(app, open) {
      polls = open;
      app.addHook('onResponse', onResponse);
      app.get(METRICS_PATH, async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
    },
  };
}
