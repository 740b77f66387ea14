// The server process: HTTP and HTTPS listeners on one app, and a graceful close.
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp, openStore } from './app.js';
import { validateConfig, type ServerConfig } from './config.js';
import { selfSignedCertificate } from './tls.js';
import { createServerMetrics } from './metrics.js';
import type { Store } from './store/types.js';
import { collectGarbage } from '../cli/garbage.js';
import { answerUnavailable, connectionOptions, drain, listenError, listenOn, protect, trackConnections } from './listeners.js';

export interface RunningServer {
  app: FastifyInstance;
  httpUrl: string;
  httpsUrl?: string;
  /** Stop accepting on both listeners, answer open polls, let requests in flight finish (200 or
   * 503), then commit pending writes and close the store. */
  close(): Promise<void>;
}

// Below the 5 s a supervisor gives between SIGTERM and SIGKILL, leaving time for the final commit.
const CLOSE_DEADLINE_MS = 4000;

function urlOf(scheme: string, host: string, address: AddressInfo): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${shown}:${address.port}`;
}

export interface StartOptions {
  /** Serve this store instead of opening config.db (tests fill one up); closed with the server. */
  store?: Store;
  /** Where the log lines go (stdout by default). */
  logStream?: DestinationStream;
}

export async function startServer(input: Partial<ServerConfig> = {}, options: StartOptions = {}): Promise<RunningServer> {
  const config = validateConfig(input);
  // The store outlives the app's own close: it is closed once both listeners have drained.
  const metrics = config.metrics ? createServerMetrics() : undefined;
  const store = options.store ?? openStore(config, metrics);
  const app = await buildApp(config, { store, metrics, logStream: options.logStream });
  let https: HttpsServer | undefined;
  // Both listeners stop accepting before buildApp's preClose tells clients to leave (Connection:
  // close, 503): a client that reconnects then is refused, where a listener still open would queue
  // its connection and the kernel reset it at the close. Fastify closes its HTTP server only after
  // the preClose hooks, so the drain is awaited there.
  let drained: Promise<unknown> | undefined;
  const drainListeners = () => (drained ??= Promise.all([drain(app.server), https && drain(https)]));
  app.addHook('preClose', async () => {
    await drainListeners();
  });
  protect(app.server, config, app.log, 'HTTP');
  const connections = [trackConnections(app.server)];
  try {
    // Schemas and serializers are compiled when the app is ready, and their garbage goes before the
    // first request. Their generated code gives thousands of short-lived objects distinct first
    // property names (`validate12`, `__fjs_root_391`, ...). V8 keeps a transition to each from the map
    // of `{}` until a full collection clears the dead ones, and that map holds at most 1,536: once it
    // is full, every object that later gets a first property it has no transition for (a request's
    // headers object) builds new maps each time. For dhi serve that was 16,000-20,000 instructions more
    // a telemetry POST (callgrind, 1 and 100 devices: Node's headers getter storing into new maps)
    // until the heap next needed a full collection.
    await app.ready();
    collectGarbage();
    await app.listen({ host: config.host, port: config.port, backlog: config.backlog }).catch((error: unknown) => {
      throw listenError(error, config.host, config.port, '--port');
    });
    if (config.httpsPort >= 0) {
      const tls = config.tlsCert && config.tlsKey
        ? { cert: await readFile(config.tlsCert), key: await readFile(config.tlsKey) }
        : await selfSignedCertificate();
      // HTTPS serves the same routing through Fastify's request handler.
      https = createHttpsServer(
        { ...tls, ...connectionOptions(config), handshakeTimeout: config.tlsHandshakeTimeoutMs },
        (req, res) => app.routing(req, res),
      );
      protect(https, config, app.log, 'HTTPS');
      connections.push(trackConnections(https));
      await listenOn(https, config.host, config.httpsPort, config.backlog, '--https-port');
    }
  } catch (error) {
    // Half-started is not started: no listener stays open.
    https = undefined;
    await app.close();
    await store.close();
    throw error;
  }

  app.dhi.listening.http = (app.server.address() as AddressInfo).port;
  app.dhi.listening.https = https && (https.address() as AddressInfo).port;
  return {
    app,
    httpUrl: urlOf('http', config.host, app.server.address() as AddressInfo),
    httpsUrl: https ? urlOf('https', config.host, https.address() as AddressInfo) : undefined,
    async close() {
      const deadline = setTimeout(() => {
        for (const open of connections) answerUnavailable(open);
        app.server.closeAllConnections();
        https?.closeAllConnections();
      }, CLOSE_DEADLINE_MS);
      void drainListeners();
      await app.close();
      clearTimeout(deadline);
      await store.close();
    },
  };
}
