// `dhi simulate --prometheus-port N`: the run's figures in the Prometheus text format while it runs,
// through prom-client, at http://<host>:<port>/metrics. It reads the simulator's measurements through
// one narrow function, observe(delta): the deltas that the engine folds into its totals once a
// second (the `measured` engine event), from this process and from the workers alike. So a scrape
// is at most a second behind the run, and the counters end equal to the summary's figures.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EngineEvent } from './simulation.js';
import { forEachValue } from './histograms.js';
import type { CounterName, ErrorClass, MetricsDelta, PathDelta, PathName, Phase } from './metrics.js';

export const PROMETHEUS_PATH = '/metrics';

/** Request latencies, from half a millisecond to the longest poll. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

export interface PrometheusExporter {
  url: string;
  registry: Registry;
  /** Folds one measurement delta into the metrics (the narrow function). */
  observe(delta: MetricsDelta): void;
  /** The engine's event stream: `measured` events are observed, the rest ignored. */
  onEvent(event: EngineEvent): void;
  close(): Promise<void>;
}

export class ExporterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExporterError';
  }
}

export async function startPrometheusExporter(host: string, port: number): Promise<PrometheusExporter> {
  const registry = new Registry();
  const requests = new Counter({ name: 'dhi_simulate_requests_total', help: 'Outcomes per measured path (see dhi simulate --help) and phase: ok, or the error class (status <code>, timeout, reset, connect, dropped, mismatch, checksum, other)', labelNames: ['path', 'phase', 'outcome'], registers: [registry] });
  const latency = new Histogram({ name: 'dhi_simulate_latency_seconds', help: 'Latency of every timed outcome (errors included) per path and phase, corrected for coordinated omission in open-model runs', labelNames: ['path', 'phase'], buckets: LATENCY_BUCKETS, registers: [registry] });
  const events = new Counter({ name: 'dhi_simulate_events_total', help: 'What the devices saw: telemetryPoints, updatesDelivered, attributeLost, rpcDelivered, rpcReplied, attributePolls, rpcPolls, pollTimeouts', labelNames: ['event'], registers: [registry] });
  const online = new Gauge({ name: 'dhi_simulate_devices_online', help: 'Devices whose polls are on the wire (or that have sent), since the start', registers: [registry] });

  const observePath = (path: PathName, phase: Phase, d: PathDelta) => {
    if (d.ok) requests.inc({ path, phase, outcome: 'ok' }, d.ok);
    for (const [outcome, n] of Object.entries(d.errors) as [ErrorClass, number][]) if (n) requests.inc({ path, phase, outcome }, n);
    const child = latency.labels({ path, phase });
    forEachValue(d.histogram, (micros, count) => {
      for (let i = 0; i < count; i++) child.observe(micros / 1e6);
    });
  };
  const observe = (delta: MetricsDelta) => {
    for (const phase of ['warmup', 'steady'] as const) {
      for (const [path, d] of Object.entries(delta[phase]) as [PathName, PathDelta][]) observePath(path, phase, d);
    }
    for (const [name, n] of Object.entries(delta.counters) as [CounterName, number][]) {
      if (!n) continue;
      if (name === 'devicesOnline') online.inc(n);
      else events.inc({ event: name }, n);
    }
  };

  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== PROMETHEUS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: the metrics are at ${PROMETHEUS_PATH}\n`);
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${error.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new ExporterError(`--prometheus-port: cannot listen on ${host}:${port}: ${error.code === 'EADDRINUSE' ? 'the port is already in use' : error.message}`)));
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shown}:${address.port}${PROMETHEUS_PATH}`,
    registry,
    observe,
    onEvent: (event) => event.type === 'measured' && observe(event.delta),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export interface PrometheusOptions {
  prometheusPort?: number;
  prometheusHost: string;
  prometheusLinger: number;
}

/**
 * Runs `run` with an exporter when --prometheus-port is given (its onEvent for the engine's events),
 * then keeps it up for --prometheus-linger (a Ctrl-C ends that wait) and closes it.
 */
export async function withPrometheus<T>(options: PrometheusOptions, print: (text: string) => void, interrupt: AbortSignal | undefined, run: (onEvent?: (event: EngineEvent) => void) => Promise<T>): Promise<T> {
  if (options.prometheusPort === undefined) return run();
  const exporter = await startPrometheusExporter(options.prometheusHost, options.prometheusPort);
  print(`prometheus: ${exporter.url}\n`);
  try {
    const result = await run(exporter.onEvent);
    if (options.prometheusLinger > 0 && !interrupt?.aborted) {
      print(`prometheus: the final figures stay at ${exporter.url} for ${options.prometheusLinger / 1000}s (--prometheus-linger)\n`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.prometheusLinger);
        interrupt?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
    return result;
  } finally {
    await exporter.close();
  }
}
