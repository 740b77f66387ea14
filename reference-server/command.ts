// `dhi serve`: options and help. The process itself is in cli.ts.
import type { Command } from 'commander';
import { integer } from '../cli/option-parsers.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the reference server (device API + control API) on the embedded SQLite store')
    .option('--host <host>', 'address to listen on (0.0.0.0 = all interfaces)', '127.0.0.1')
    .option('--port <n>', 'HTTP port (0 = any free port)', integer(0, 65535), 8080)
    .option('--https-port <n>', 'HTTPS port (0 = any free port, -1 = no HTTPS)', integer(-1, 65535), 8443)
    .option('--backlog <n>', 'listen backlog (pending connections the kernel queues)', integer(1, 65535), 4096)
    .option('--max-connections <n>', 'open connections per listener; more are refused at accept', integer(1), 9_000)
    .option('--header-timeout <ms>', 'a request\'s headers must arrive within this (408 and close)', integer(1), 10_000)
    .option('--body-timeout <ms>', 'a whole request, headers and body, must arrive within this (long polls may answer later)', integer(1), 20_000)
    .option('--keep-alive-timeout <ms>', 'an idle keep-alive connection is closed after this', integer(1), 5_000)
    .option('--tls-handshake-timeout <ms>', 'a TLS handshake must finish within this', integer(1), 10_000)
    .option('--tls-cert <file>', 'PEM certificate for HTTPS (a self-signed one is generated when absent)')
    .option('--tls-key <file>', 'PEM private key for HTTPS')
    .option('--db <path>', 'SQLite database file, or :memory:', './data/dhi.db')
    .option('--default-poll-timeout <ms>', 'long poll timeout when the device gives none', integer(1), 60_000)
    .option('--max-poll-timeout <ms>', 'upper bound of a long poll timeout', integer(1), 300_000)
    .option('--client-rpc-timeout <ms>', 'how long a device-side RPC waits for a rule before 503', integer(1), 30_000)
    .option('--claim-duration <ms>', 'device.claim.duration: the default claim window', integer(1), 86_400_000)
    .option('--claim-cache-ttl <ms>', 'how long a claim window is kept, expired or not, before a new claim request can replace it (ThingsBoard\'s claimDevices cache TTL)', integer(1), 86_400_000)
    .option('--inactivity-timeout <ms>', 'a device with no message for this long becomes inactive (ThingsBoard\'s state.defaultInactivityTimeoutInSec; a device\'s inactivityTimeout server attribute overrides it)', integer(1), 600_000)
    .option('--state-check-interval <ms>', 'how often devices past their inactivity timeout are marked inactive (state.defaultStateCheckIntervalInSec)', integer(1), 60_000)
    .option('--activity-report-interval <ms>', 'how often the devices\' last activity is saved, in one batch (ThingsBoard\'s transport.sessions.report_timeout, strategy LAST)', integer(1), 3_000)
    .option('--persist-state-to-telemetry', 'keep device state (active, lastActivityTime, ...) as telemetry instead of server attributes (state.persistToTelemetry)')
    .option('--no-type-cast', 'store numeric strings as strings (ThingsBoard casts them to numbers)')
    .option('--admin-password <password>', 'password of tenant@thingsboard.org', 'tenant')
    .option('--jwt-secret <secret>', 'HMAC secret for control API tokens (generated and stored when absent)')
    .option('--ttl <seconds>', 'delete time-series values older than this, in small steps (ThingsBoard\'s ts_key_value_ttl; 0 = keep them)', integer(0), 0)
    .option('--rpc-ttl <seconds>', 'delete ended persistent RPCs created longer ago than this, in small steps (ThingsBoard\'s rpcTtlDays; 0 = keep them)', integer(0), 0)
    .option('--metrics', 'serve Prometheus metrics at GET /metrics: requests by route and status, their latency, open polls and server RPCs, group-commit batch sizes, process figures', false)
    .option('--log-level <level>', 'fatal, error, warn, info, debug (adds one line per request), trace or silent', 'warn')
    .action(async (options) => {
      const { runServe } = await import('./cli.js');
      await runServe(options);
    });
}
