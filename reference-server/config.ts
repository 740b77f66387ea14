// Server configuration: defaults, and validateConfig() that names the bad option by its `dhi serve`
// flag (`--log-level`, not `logLevel`); settings without a flag go by their key.
// Configuration enters at the edge (CLI, tests), is validated once and passed down read-only.

export interface PayloadLimit {
  /** Path pattern: `*` matches one segment, `**` any rest (ThingsBoard's max_payload_size syntax). */
  pattern: string;
  bytes: number;
}

export interface ServerConfig {
  host: string;
  port: number;
  /** -1 disables HTTPS; 0 picks a free port. */
  httpsPort: number;
  /** listen() backlog: a fleet joining at once (two polls per device) overflows Node's default 511. */
  backlog: number;
  /** Open connections per listener (HTTP and HTTPS each); more are closed at accept, before the
   * process runs out of descriptors (20,000 here: two listeners at 9,000 leave room for files). */
  maxConnections: number;
  /** A request's headers must arrive within this (408 and close; also a connection that sends nothing). */
  headerTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this. Answers may take longer (long polls). */
  bodyTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** A TLS handshake must finish within this. */
  tlsHandshakeTimeoutMs: number;
  tlsCert?: string;
  tlsKey?: string;
  /** SQLite file, or ':memory:'. */
  db: string;
  defaultPollTimeoutMs: number;
  maxPollTimeoutMs: number;
  clientRpcTimeoutMs: number;
  /** device.claim.duration */
  claimDurationMs: number;
  /**
   * ThingsBoard's claimDevices cache TTL: a claim request's window is kept, expired or not, this long
   * after it was opened (or until a claim attempt ends it); a new request meanwhile opens none.
   */
  claimCacheTtlMs: number;
  /** Default server-side RPC timeout (ThingsBoard server.rest.server_side_rpc.default_timeout). */
  serverRpcDefaultTimeoutMs: number;
  /** Minimum server-side RPC timeout (ThingsBoard server.rest.server_side_rpc.min_timeout). */
  serverRpcMinTimeoutMs: number;
  /** First matching pattern wins. */
  payloadLimits: PayloadLimit[];
  /** state.defaultInactivityTimeoutInSec (here ms): no device message for this long makes a device inactive. */
  inactivityTimeoutMs: number;
  /** state.defaultStateCheckIntervalInSec (here ms): how often the inactivity check runs. */
  stateCheckIntervalMs: number;
  /**
   * transport.sessions.report_timeout with reporting_strategy LAST: how often the devices' last
   * activity is reported to the device state and saved, in one transaction.
   */
  activityReportIntervalMs: number;
  /** state.persistToTelemetry: device state as latest telemetry instead of server attributes. */
  persistStateToTelemetry: boolean;
  /** ThingsBoard transport.json.type_cast_enabled: numeric strings are stored as numbers. */
  typeCast: boolean;
  adminPassword: string;
  jwtSecret?: string;
  jwtTtlSeconds: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Serve Prometheus metrics at GET /metrics (metrics.ts). */
  metrics: boolean;
  /** Time-series values older than this many seconds are deleted (ThingsBoard's ts_key_value_ttl; 0: kept). */
  ttlSeconds: number;
  /**
   * Ended persistent RPCs older than this many seconds are deleted (ThingsBoard's RpcCleanUpService
   * with the tenant profile's rpcTtlDays; 0: kept, as ThingsBoard's default tenant profile keeps them).
   */
  rpcTtlSeconds: number;
}

export const defaultConfig: Readonly<ServerConfig> = Object.freeze({
  host: '127.0.0.1',
  port: 8080,
  httpsPort: 8443,
  backlog: 4096,
  maxConnections: 9_000,
  headerTimeoutMs: 10_000,
  bodyTimeoutMs: 20_000,
  keepAliveTimeoutMs: 5_000,
  tlsHandshakeTimeoutMs: 10_000,
  db: './data/dhi.db',
  defaultPollTimeoutMs: 60_000,
  maxPollTimeoutMs: 300_000,
  clientRpcTimeoutMs: 30_000,
  claimDurationMs: 86_400_000,
  claimCacheTtlMs: 86_400_000,
  serverRpcDefaultTimeoutMs: 10_000,
  serverRpcMinTimeoutMs: 5_000,
  payloadLimits: [
    { pattern: '/api/v1/*/rpc/**', bytes: 65_536 },
    { pattern: '/api/v1/**', bytes: 52_428_800 },
    { pattern: '/api/**', bytes: 16_777_216 },
  ],
  inactivityTimeoutMs: 600_000,
  stateCheckIntervalMs: 60_000,
  activityReportIntervalMs: 3_000,
  persistStateToTelemetry: false,
  typeCast: true,
  adminPassword: 'tenant',
  jwtTtlSeconds: 9000,
  logLevel: 'warn',
  metrics: false,
  ttlSeconds: 0,
  rpcTtlSeconds: 0,
});

export class ConfigError extends Error {
  constructor(readonly option: string, message: string) {
    super(`invalid option ${option}: ${message}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function checkInt(option: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(option, `expected an integer in ${min}..${max}, got ${value}`);
  }
}

/** Merge over the defaults and check every option; throws ConfigError naming the first bad one. */
export function validateConfig(input: Partial<ServerConfig> = {}): Readonly<ServerConfig> {
  const config: ServerConfig = { ...defaultConfig, ...dropUndefined(input) };
  checkInt('--port', config.port, 0, 65535);
  checkInt('--https-port', config.httpsPort, -1, 65535);
  checkInt('--backlog', config.backlog, 1, 65535);
  checkInt('--max-connections', config.maxConnections, 1);
  checkInt('--header-timeout', config.headerTimeoutMs, 1);
  checkInt('--body-timeout', config.bodyTimeoutMs, 1);
  if (config.headerTimeoutMs > config.bodyTimeoutMs) {
    throw new ConfigError('--header-timeout', `must not exceed --body-timeout (${config.bodyTimeoutMs})`);
  }
  checkInt('--keep-alive-timeout', config.keepAliveTimeoutMs, 1);
  checkInt('--tls-handshake-timeout', config.tlsHandshakeTimeoutMs, 1);
  checkInt('--default-poll-timeout', config.defaultPollTimeoutMs, 1);
  checkInt('--max-poll-timeout', config.maxPollTimeoutMs, 1);
  if (config.defaultPollTimeoutMs > config.maxPollTimeoutMs) {
    throw new ConfigError('--default-poll-timeout', `must not exceed --max-poll-timeout (${config.maxPollTimeoutMs})`);
  }
  checkInt('--client-rpc-timeout', config.clientRpcTimeoutMs, 1);
  checkInt('--claim-duration', config.claimDurationMs, 1);
  checkInt('--claim-cache-ttl', config.claimCacheTtlMs, 1);
  checkInt('--inactivity-timeout', config.inactivityTimeoutMs, 1);
  checkInt('--state-check-interval', config.stateCheckIntervalMs, 1, 2 ** 31 - 1);
  checkInt('--activity-report-interval', config.activityReportIntervalMs, 1, 2 ** 31 - 1);
  checkInt('serverRpcDefaultTimeoutMs', config.serverRpcDefaultTimeoutMs, 1);
  checkInt('serverRpcMinTimeoutMs', config.serverRpcMinTimeoutMs, 0);
  checkInt('jwtTtlSeconds', config.jwtTtlSeconds, 1);
  checkInt('--ttl', config.ttlSeconds, 0);
  checkInt('--rpc-ttl', config.rpcTtlSeconds, 0);
  if (!config.db) throw new ConfigError('--db', 'must be a file path or :memory:');
  if (Boolean(config.tlsCert) !== Boolean(config.tlsKey)) {
    throw new ConfigError(config.tlsCert ? '--tls-key' : '--tls-cert', '--tls-cert and --tls-key go together');
  }
  if (!config.adminPassword) throw new ConfigError('--admin-password', 'must not be empty');
  if (!LOG_LEVELS.includes(config.logLevel)) throw new ConfigError('--log-level', `expected one of ${LOG_LEVELS.join(', ')}, got "${config.logLevel}"`);
  for (const limit of config.payloadLimits) {
    if (!limit.pattern.startsWith('/')) throw new ConfigError('payloadLimits', `pattern ${limit.pattern} must start with /`);
    checkInt(`payloadLimits[${limit.pattern}]`, limit.bytes, 1);
  }
  return Object.freeze(config);
}

function dropUndefined<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}
