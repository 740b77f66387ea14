// The server process: HTTP and HTTPS listeners on one app, and a graceful close.
import { createServer as createHttpsServer } from 'node:https';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { validateConfig, type ServerConfig } from './config.js';
import { selfSignedCertificate } from './tls.js';

export interface RunningServer {
  app: FastifyInstance;
  httpUrl: string;
  httpsUrl?: string;
  /** Stop accepting, answer open polls, commit pending writes, close the store. */
  close(): Promise<void>;
}

const CLOSE_DEADLINE_MS = 5000;

function urlOf(scheme: string, host: string, address: AddressInfo): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${shown}:${address.port}`;
}

export async function startServer(input: Partial<ServerConfig> = {}): Promise<RunningServer> {
  const config = validateConfig(input);
  const app = await buildApp(config);
  await app.listen({ host: config.host, port: config.port, backlog: config.backlog });
  const httpUrl = urlOf('http', config.host, app.server.address() as AddressInfo);

  // HTTPS serves the same routing through Fastify's request handler.
  let https: ReturnType<typeof createHttpsServer> | undefined;
  let httpsUrl: string | undefined;
  if (config.httpsPort >= 0) {
    const tls = config.tlsCert && config.tlsKey
      ? { cert: await readFile(config.tlsCert), key: await readFile(config.tlsKey) }
      : await selfSignedCertificate();
    https = createHttpsServer({ ...tls, requestTimeout: 0 }, (req, res) => app.routing(req, res));
    await new Promise<void>((resolve, reject) => {
      https!.once('error', reject).listen(config.httpsPort, config.host, config.backlog, () => resolve());
    });
    httpsUrl = urlOf('https', config.host, https.address() as AddressInfo);
    app.log.info({ url: httpsUrl }, 'HTTPS listening');
  }

  return {
    app,
    httpUrl,
    httpsUrl,
    async close() {
      const deadline = setTimeout(() => {
        app.server.closeAllConnections();
        https?.closeAllConnections();
      }, CLOSE_DEADLINE_MS);
      deadline.unref();
      const httpsClosed = https
        ? new Promise<void>((resolve) => {
            https!.close(() => resolve());
            https!.closeIdleConnections();
          })
        : Promise.resolve();
      await app.close();
      https?.closeIdleConnections();
      await httpsClosed;
      clearTimeout(deadline);
    },
  };
}
