// `dhi serve`: turn CLI options into a validated config, start, and stop cleanly on SIGTERM/SIGINT.
import { statSync } from 'node:fs';
import { EXIT } from '../cli/exit-codes.js';
import { megabytes } from '../cli/sizes.js';
import { ConfigError, defaultConfig, type ServerConfig } from './config.js';
import { ListenError } from './listeners.js';
import { StoreFileError } from './store/types.js';
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
  inactivityTimeout?: number;
  stateCheckInterval?: number;
  activityReportInterval?: number;
  persistStateToTelemetry?: boolean;
  typeCast?: boolean;
  adminPassword?: string;
  jwtSecret?: string;
  logLevel?: string;
  /** Serve Prometheus metrics at GET /metrics on the HTTP listener. */
  metrics?: boolean;
  ttl?: number;
  rpcTtl?: number;
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
    inactivityTimeoutMs: options.inactivityTimeout,
    stateCheckIntervalMs: options.stateCheckInterval,
    activityReportIntervalMs: options.activityReportInterval,
    persistStateToTelemetry: options.persistStateToTelemetry,
    typeCast: options.typeCast,
    adminPassword: options.adminPassword,
    jwtSecret: options.jwtSecret,
    logLevel: options.logLevel as ServerConfig['logLevel'] | undefined,
    metrics: options.metrics,
    ttlSeconds: options.ttl,
    rpcTtlSeconds: options.rpcTtl,
  };
}

const ALL_INTERFACES = new Set(['0.0.0.0', '::', '']);

/** The size of the store's file and of its WAL beside it. */
function storeSize(db: string): string {
  if (db === ':memory:') return 'in memory';
  const size = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  return `${megabytes(size(db))} + ${megabytes(size(`${db}-wal`))} WAL`;
}

/** What a person starting the server needs: where it is, the docs, how to log in, what the store holds. */
export function banner(server: RunningServer, config: Readonly<ServerConfig>): string[] {
  return [
    `dhi serve: device API on ${server.httpUrl}${server.httpsUrl ? ` and ${server.httpsUrl}` : ''}`,
    `  API docs   ${server.httpUrl}/docs`,
    `  login      ${DEFAULT_ADMIN} / ${config.adminPassword === defaultConfig.adminPassword ? config.adminPassword : '(--admin-password)'}`,
    `  JWT        curl -s -X POST ${server.httpUrl}/api/auth/login -H 'Content-Type: application/json' -d '{"username":"${DEFAULT_ADMIN}","password":"..."}'`,
    `  database   ${config.db} (${storeSize(config.db)}; ${config.ttlSeconds > 0 ? `values kept ${config.ttlSeconds} s` : 'values kept forever: --ttl'}); request logs: --log-level debug; stop: Ctrl-C`,
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
    if (error instanceof StoreFileError) {
      console.error(`dhi serve: ${error.message}`);
      process.exitCode = EXIT.cannotRun;
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
