// `dhi serve`: turn CLI options into a validated config, start, and stop cleanly on SIGTERM/SIGINT.
import { EXIT } from '../cli/exit-codes.js';
import { ConfigError, defaultConfig, type ServerConfig } from './config.js';
import { ListenError } from './listeners.js';
import { startServer, type RunningServer } from './server.js';
import { DEFAULT_ADMIN } from './control-api/auth.js';
import { METRICS_PATH } from './metrics.js';

export interface ServeOptions {
  host?: string;
  port?: number;
  httpsPort?: number;
  backlog?: number;
  maxConnections?: number;
  headerTimeout?: number;
  bodyTimeout?: number;
  keepAliveTimeout?: number;
  tlsHandshakeTimeout?: number;
  tlsCert?: string;
  tlsKey?: string;
  db?: string;
  defaultPollTimeout?: number;
  maxPollTimeout?: number;
  clientRpcTimeout?: number;
  claimDuration?: number;
  claimCacheTtl?: number;
  typeCast?: boolean;
  adminPassword?: string;
  jwtSecret?: string;
  logLevel?: string;
  /** Serve Prometheus metrics at GET /metrics on the HTTP listener. */
  metrics?: boolean;
}

export function configFromOptions(options: ServeOptions): Partial<ServerConfig> {
  return {
    host: options.host,
    port: options.port,
    httpsPort: options.httpsPort,
    backlog: options.backlog,
    maxConnections: options.maxConnections,
    headerTimeoutMs: options.headerTimeout,
    bodyTimeoutMs: options.bodyTimeout,
    keepAliveTimeoutMs: options.keepAliveTimeout,
    tlsHandshakeTimeoutMs: options.tlsHandshakeTimeout,
    tlsCert: options.tlsCert,
    tlsKey: options.tlsKey,
    db: options.db,
    defaultPollTimeoutMs: options.defaultPollTimeout,
    maxPollTimeoutMs: options.maxPollTimeout,
    clientRpcTimeoutMs: options.clientRpcTimeout,
    claimDurationMs: options.claimDuration,
    claimCacheTtlMs: options.claimCacheTtl,
    typeCast: options.typeCast,
    adminPassword: options.adminPassword,
    jwtSecret: options.jwtSecret,
    logLevel: options.logLevel as ServerConfig['logLevel'] | undefined,
    metrics: options.metrics,
  };
}

const ALL_INTERFACES = new Set(['0.0.0.0', '::', '']);

/** What a person starting the server needs: where it is, the docs, how to log in. */
export function banner(server: RunningServer, config: Readonly<ServerConfig>): string[] {
  return [
    `dhi serve: device API on ${server.httpUrl}${server.httpsUrl ? ` and ${server.httpsUrl}` : ''}`,
    `  API docs   ${server.httpUrl}/docs`,
    `  login      ${DEFAULT_ADMIN} / ${config.adminPassword === defaultConfig.adminPassword ? config.adminPassword : '(--admin-password)'}`,
    `  JWT        curl -s -X POST ${server.httpUrl}/api/auth/login -H 'Content-Type: application/json' -d '{"username":"${DEFAULT_ADMIN}","password":"..."}'`,
    `  database   ${config.db}; request logs: --log-level debug; stop: Ctrl-C`,
    ...(config.metrics ? [`  metrics    ${server.httpUrl}${METRICS_PATH} (Prometheus)`] : []),
  ];
}

/** Anyone on the network could log in as the tenant admin. */
export function exposureWarning(config: Readonly<ServerConfig>): string | undefined {
  if (!ALL_INTERFACES.has(config.host) || config.adminPassword !== defaultConfig.adminPassword) return undefined;
  return `dhi serve: warning: listening on all interfaces (--host ${config.host}) with the default password; set --admin-password`;
}

export async function runServe(options: ServeOptions): Promise<void> {
  let server;
  try {
    server = await startServer(configFromOptions(options));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`dhi serve: ${error.message}`);
      process.exitCode = EXIT.usage;
      return;
    }
    if (error instanceof ListenError) {
      console.error(`dhi serve: ${error.message}`);
      process.exitCode = EXIT.failed;
      return;
    }
    throw error;
  }
  const { config: used } = server.app.dhi;
  const [first, ...rest] = banner(server, used);
  console.log(first);
  if (used.logLevel !== 'silent') {
    for (const line of rest) console.log(line);
    const warning = exposureWarning(used);
    if (warning) console.warn(warning);
  }
  const stop = async (signal: string) => {
    server.app.log.info({ signal }, 'shutting down');
    await server.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
