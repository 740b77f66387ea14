// Subcommand definitions: names, options and help text. Implementations are imported lazily so
// that `dhi serve` does not load the simulator and vice versa.
import type { Command } from 'commander';
import { integer, httpUrl } from './option-parsers.js';

export function registerCommands(program: Command): void {
  program
    .command('serve')
    .description('run the reference server (device API + control API) on the embedded SQLite store')
    .option('--host <host>', 'address to listen on', '0.0.0.0')
    .option('--port <n>', 'HTTP port (0 = any free port)', integer(0, 65535), 8080)
    .option('--https-port <n>', 'HTTPS port (0 = any free port, -1 = no HTTPS)', integer(-1, 65535), 8443)
    .option('--tls-cert <file>', 'PEM certificate for HTTPS (a self-signed one is generated when absent)')
    .option('--tls-key <file>', 'PEM private key for HTTPS')
    .option('--db <path>', 'SQLite database file, or :memory:', './data/dhi.db')
    .option('--max-poll-timeout <ms>', 'upper bound of a long poll timeout', integer(1), 300_000)
    .option('--default-poll-timeout <ms>', 'long poll timeout when the device gives none', integer(1), 60_000)
    .option('--client-rpc-timeout <ms>', 'how long a device-side RPC waits for a rule before 503', integer(1), 30_000)
    .option('--claim-duration <ms>', 'device.claim.duration: default claim window', integer(1), 86_400_000)
    .option('--admin-password <password>', 'password of tenant@thingsboard.org', 'tenant')
    .option('--jwt-secret <secret>', 'HMAC secret for control API tokens (generated and stored when absent)')
    .option('--log-level <level>', 'pino log level (fatal, error, warn, info, debug, trace, silent)', 'info')
    .action(async (options) => {
      const { runServe } = await import('../reference-server/cli.js');
      await runServe(options);
    });

  program
    .command('conform')
    .description('run the conformance suite against a server and write reports')
    .requiredOption('--target <url>', 'base URL of the device API', httpUrl)
    .option('--report-dir <dir>', 'where reports go', 'reports/conformance')
    .option('--agent <name>', 'name of the implementation under test (one column of the report matrix)')
    .option('--strict', 'SHOULD failures fail the run too', false)
    .action(() => notYet('conform', 'the conformance suite (issue 5)'));

  program
    .command('simulate')
    .description('run a fleet of virtual devices against a server and measure latency and throughput')
    .requiredOption('--target <url>', 'base URL of the device API', httpUrl)
    .option('--devices <n>', 'number of virtual devices', integer(1), 100)
    .option('--duration <time>', 'how long to run (60s, 2m, ...)', '60s')
    .option('--scenario <name>', 'telemetry | longpoll | rpc | mixed | <file.json>', 'mixed')
    .option('--report-dir <dir>', 'where reports go', 'reports/simulate')
    .action(() => notYet('simulate', 'the simulator (issue 6)'));

  program
    .command('bench')
    .description('benchmark hot paths of a reference server with autocannon; JSON results in reports/bench')
    .action(() => notYet('bench', 'the hot-path benchmark (issue 6)'));

  program
    .command('demo')
    .description('start the reference server, run the conformance suite and a simulation against it, keep serving')
    .action(() => notYet('demo', 'the demo (issue 6)'));
}

function notYet(command: string, what: string): void {
  console.error(`dhi ${command}: ${what} is not built yet. Meanwhile \`dhi serve\` runs the reference server.`);
  process.exitCode = 2;
}
