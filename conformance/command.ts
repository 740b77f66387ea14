// `dhi conform`: options and help. The suite itself is loaded only when the command runs.
import type { Command } from 'commander';
import { collect, httpUrl, integer } from '../cli/option-parsers.js';
import type { ConformOptions } from './cli.js';

export function registerConform(program: Command): void {
  program
    .command('conform')
    .description('run the conformance suite against a server and write reports (exit 0 when every MUST case passes, 1 when one fails or did not run, 2 for a usage error or a failed control API login, 3 when the target is unreachable)')
    .option('--target <url>', 'base URL of the device API (required unless --list)', httpUrl)
    .option('--control-url <url>', 'base URL of the ThingsBoard-style control API (default: the target)', httpUrl)
    .option('--username <user>', 'control API user', 'tenant@thingsboard.org')
    .option('--password <password>', 'control API password', 'tenant')
    .option('--cases <id-glob>', 'run only cases whose id matches (e.g. 4.*, *.3.*, 1.2.1; repeatable, comma-separated)', collect)
    .option('--exclude <id-glob>', 'leave out cases whose id matches (repeatable, comma-separated)', collect)
    .option('--strict', 'SHOULD failures fail the run too', false)
    .option('--allow-skips', 'MUST cases that cannot run (no control API, no rules API) do not fail the run', false)
    .option('--robustness', 'also run the robustness cases (<op>.7.<n>: hostile bodies, oversized bodies, slow clients, aborted and concurrent polls, an unanswered device-side RPC; about 35 s)', false)
    .option('--client-rpc-timeout <ms>', 'how long the target keeps a device-side RPC that no rule answers before it answers it (ThingsBoard: 503 after about 30 s); robustness case 7.7.1 waits this long plus 5 s', integer(1, 600_000), 30_000)
    .option('--list', 'print the case catalogue (after --cases/--exclude) and exit', false)
    .option('--agent <name>', 'name of the implementation under test (one column of the report matrix; default: the target host)')
    .option('--report-dir <dir>', 'where reports go', 'reports/conformance')
    .option('--insecure', 'accept a self-signed HTTPS certificate', false)
    .option('--concurrency <n>', 'cases run at once', integer(1, 256), 8)
    .option('--expect <file>', 'the known departures of the target (YAML or JSON: per case id an outcome and a one-line reason): the run passes when every case ends as listed and every other case passes, and fails on a new failure and on a listed case that passes')
    .option('--write-expect <file>', 'write an expectations file from this run: an entry per case that did not pass (reasons of --expect kept; new ones to fill in)')
    .addHelpText('after', '\nUnder GitHub Actions (GITHUB_ACTIONS=true) the run also appends a markdown summary to\n$GITHUB_STEP_SUMMARY and prints one ::error annotation per case that fails it.')
    .action(async (options: ConformOptions) => {
      const { runConform, UsageError } = await import('./cli.js');
      const { githubFromEnv } = await import('./report/github.js');
      try {
        const result = await runConform({ ...options, github: githubFromEnv(process.env) });
        process.exitCode = result.exitCode;
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        console.error(`dhi conform: ${error.message}`);
        process.exitCode = 2;
      }
    });
}
