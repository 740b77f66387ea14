// `dhi simulate`, `dhi bench`, `dhi demo`: options and help.
import type { Command } from 'commander';
import { httpUrl, integer } from '../bin/option-parsers.js';
import { notYet } from '../bin/not-yet.js';

export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description('run a fleet of virtual devices against a server and measure latency and throughput')
    .requiredOption('--target <url>', 'base URL of the device API', httpUrl)
    .option('--devices <n>', 'number of virtual devices', integer(1), 100)
    .option('--duration <time>', 'how long to run (60s, 2m, ...)', '60s')
    .option('--scenario <name>', 'telemetry | longpoll | rpc | mixed | <file.json>', 'mixed')
    .option('--report-dir <dir>', 'where reports go', 'reports/simulate')
    .action(() => notYet('simulate', 'the simulator (issue 6)'));
}

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('benchmark hot paths of a reference server with autocannon; JSON results in reports/bench')
    .action(() => notYet('bench', 'the hot-path benchmark (issue 6)'));
}

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('start the reference server, run the conformance suite and a simulation against it, keep serving')
    .action(async () => {
      // Until the demo lands (issue 6), `npm start` runs the reference server with its defaults.
      console.error('dhi demo: the full demo is not built yet (issue 6); starting the reference server instead.');
      const { runServe } = await import('../reference-server/cli.js');
      await runServe({});
    });
}
