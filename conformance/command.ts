// `dhi conform`: options and help.
import type { Command } from 'commander';
import { httpUrl } from '../bin/option-parsers.js';
import { notYet } from '../bin/not-yet.js';

export function registerConform(program: Command): void {
  program
    .command('conform')
    .description('run the conformance suite against a server and write reports')
    .requiredOption('--target <url>', 'base URL of the device API', httpUrl)
    .option('--report-dir <dir>', 'where reports go', 'reports/conformance')
    .option('--agent <name>', 'name of the implementation under test (one column of the report matrix)')
    .option('--strict', 'SHOULD failures fail the run too', false)
    .action(() => notYet('conform', 'the conformance suite (issue 5)'));
}
