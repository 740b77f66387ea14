// `dhi serve`: options and help. The process itself is in cli.ts.
import type { Command } from 'commander';
import { integer } from '../cli/option-parsers.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the reference server (device API + control API) on the embedded SQLite store')
    .option('--host <host>', 'address to listen on', '0.0.0.0')
    .option('--port <n>', 'HTTP port (0 = any free port)', integer(0, 65535), 8080)
    .option('--https-port <n>', 'HTTPS port (0 = any free port, -1 = no HTTPS)', integer(-1, 65535), 8443)
    .option('--backlog <n>', 'listen backlog (pending connections the kernel queues)', integer(1, 65535), 4096)
    .option('--tls-cert <file>', 'PEM certificate for HTTPS (a self-signed one is generated when absent)')
    .option('--tls-key <file>', 'PEM private key for HTTPS')
    .option('--db <path>', 'SQLite database file, or :memory:', './data/dhi.db')
    .option('--default-poll-timeout <ms>', 'long poll timeout when the device gives none', integer(1), 60_000)
    .option('--max-poll-timeout <ms>', 'upper bound of a long poll timeout', integer(1), 300_000)
    .option('--client-rpc-timeout <ms>', 'how long a device-side RPC waits for a rule before 503', integer(1), 30_000)
    .option('--claim-duration <ms>', 'device.claim.duration: the default claim window', integer(1), 86_400_000)
    .option('--no-type-cast', 'store numeric strings as strings (ThingsBoard casts them to numbers)')
    .option('--admin-password <password>', 'password of tenant@thingsboard.org', 'tenant')
    .option('--jwt-secret <secret>', 'HMAC secret for control API tokens (generated and stored when absent)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent', 'info')
    .action(async (options) => {
      const { runServe } = await import('./cli.js');
      await runServe(options);
    });
}
