// `dhi simulate`, `dhi bench`, `dhi demo`: options and help. Implementations load lazily.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { decimal, durationMs, httpUrl, integer, integerList } from '../cli/option-parsers.js';
import { parseCalibration } from './calibration/plan.js';
import { parseProfile, ProfileError, type ProfileSpec } from './profiles.js';
import { DEFAULT_MAX_CONNECTIONS_PER_DEVICE, DEFAULT_REQUEST_TIMEOUT_MS } from './simulation.js';
import { parseThreshold } from './thresholds.js';

/** A duration option whose default shows as written (`60s`), not in milliseconds. */
function durationOption(flags: string, description: string, ms: number, shown: string): Option {
  return new Option(flags, description).argParser(durationMs).default(ms, shown);
}

function warmup(value: string): number {
  return value.trim() === '0' ? 0 : durationMs(value);
}

function profile(value: string): ProfileSpec {
  try {
    return parseProfile(value);
  } catch (error) {
    if (error instanceof ProfileError) throw new InvalidArgumentError(`${error.message}.`);
    throw error;
  }
}

export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description(
      'run a fleet of virtual devices against a server and measure latency and throughput per path.\n' +
        'Exit codes: 0 passed, 1 a --threshold was breached, 2 usage error, 3 the run failed, 130 interrupted (Ctrl-C; reports still written).',
    )
    .option('--target <url>', 'base URL of the device API (dhi serve, or a ThingsBoard); required unless --calibrate', httpUrl)
    .option('--devices <n>', 'number of virtual devices', integer(1, 1_000_000), 100)
    .addOption(durationOption('--duration <time>', 'how long to run: 60s, 2m, 500ms', 60_000, '60s'))
    .option('--scenario <name>', 'telemetry | longpoll | rpc | mixed | <file.json> (a scenario file, validated)', 'mixed')
    .option('--rate <msgs>', 'telemetry messages per second for the whole fleet (open model, coordinated-omission corrected)', decimal(0, true))
    .option('--interval <time>', 'telemetry period of each device (closed model): 10s, 500ms', durationMs)
    .option('--ramp <n>', 'devices joining per second, each starting its load as it joins (default: all at once, the load starting once every device is online and connected)', decimal(0, true))
    .option('--warmup <time>', 'warm-up reported apart from the steady state: 5s, or 0 for none (default: until every device is online)', warmup)
    .option('--profile <name>', 'payload shape: smart-meter | tracker | plc | plc:<lines>', profile)
    .option('--rpc-rate <n>', 'server-side two-way RPC calls per second through the control API', decimal(0))
    .option('--attr-rate <n>', 'shared-attribute changes per second through the control API', decimal(0))
    .option('--control-url <url>', 'base URL of the control API (default: --target)', httpUrl)
    .option('--username <user>', 'control API user', 'tenant@thingsboard.org')
    .option('--password <password>', 'control API password', 'tenant')
    .option('--provision-key <key>', 'create the fleet through device provisioning with this provision key')
    .option('--provision-secret <secret>', 'the provision secret that goes with --provision-key')
    .option('--tokens <file>', 'use existing devices: one "token" or "token,deviceId" per line')
    .option('--threshold <expr>', "pass/fail rule, repeatable: 'rpc.p99<50', 'telemetry.errors<1', 'telemetry.rate>=900'", parseThreshold)
    .option('--report-dir <dir>', 'where reports go (a <timestamp>/ folder with summary.json and report.html)', 'reports/simulate')
    .option('--max-connections-per-device <n>', "connections one device may open at once (a request finding its device's busy opens another); beyond them requests wait in the simulator, reported as queued", integer(1, 1000), DEFAULT_MAX_CONNECTIONS_PER_DEVICE)
    .addOption(durationOption('--request-timeout <time>', 'a request not answered in this time ends as timeout (a long poll: its own timeout plus this); the run ends at most this long after --duration', DEFAULT_REQUEST_TIMEOUT_MS, '10s'))
    .option('--workers <n>', 'child processes for the devices (0: in this process); big fleets need several', integer(0, 64), 0)
    .option('--seed <n>', 'seed of the generated data (same seed, same payloads)', integer(0, 2 ** 31 - 1), 1)
    .option(
      '--calibrate [plan]',
      'run this scenario against a built-in target of known latency instead of --target and print expected vs reported per figure with a verdict (exit 1 when one is off): ' +
        "'latency=20ms,silence=2s,errors=10%,hang=2%' (the default; any subset)",
      parseCalibration,
    )
    .option('--export-k6 <file.ts>', 'write the scenario as a k6 script (typed with @types/k6) instead of running it')
    .option('--keep-devices', 'leave the devices this run created on the server', false)
    .option('--insecure', "HTTPS without certificate checks (dhi serve's self-signed certificate)", false)
    .option('--prometheus-port <n>', 'serve the run\'s per-path counters and latency histograms for Prometheus at http://<host>:<n>/metrics while it runs (0: any free port, printed)', integer(0, 65535))
    .option('--prometheus-host <addr>', 'address of --prometheus-port (0.0.0.0: all interfaces)', '127.0.0.1')
    .addOption(durationOption('--prometheus-linger <time>', 'keep --prometheus-port up this long after the run, for a last scrape of the final figures', 0, '0').argParser(warmup))
    .action(async (options, command: Command) => {
      const { runSimulate } = await import('./cli.js');
      await runSimulate(options, command);
    });
}

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('benchmark hot paths of the reference server with autocannon; JSON results in reports/bench')
    .option('--target <url>', 'benchmark this running server (default: start a reference server in a child process)', httpUrl)
    .option('--ops <list>', 'comma-separated operations: telemetry, attributes, longpoll', 'telemetry,attributes,longpoll')
    .addOption(durationOption('--duration <time>', 'length of each benchmark: 10s, 30s', 10_000, '10s'))
    .option('--connections <n>', 'concurrent connections', integer(1, 10_000), 50)
    .option('--pipelining <n>', 'requests pipelined per connection', integer(1, 100), 1)
    .option('--baseline', 'also benchmark a bare Fastify route in the same run (and for telemetry two bare durable routes, each request acknowledged after its group-committed COMMIT with synchronous=FULL: one inserting the body whole, one inserting each key\'s value into a table keyed by device, key and time), alternating with them, and print the ratios of the medians (throughput, and server CPU per request; that of the reference server includes folding into its tables the telemetry each round wrote: it folds what waits before a round, unmeasured, and what the round left after it, measured)', false)
    .option('--rounds <n>', 'with --baseline or --simulator: rounds per side (--baseline: the servers alternate; --simulator: each round runs autocannon, then dhi simulate and its paced floor at the same time); the median round counts', integer(1, 9), 3)
    .option('--devices <list>', 'fleet sizes, e.g. 1,100,1000,10000: each is measured with the requests spread round robin over that many distinct devices, telemetry values varying per request (the bare route gets the same requests), after every server got the load of that fleet for --duration, unmeasured; default: one device, one fixed request', integerList(1, 100_000))
    .option('--hold-polls <n>', 'then hold this many attribute long polls open on the reference server: RSS per poll, and telemetry meanwhile', integer(0, 19_500), 0)
    .option('--username <user>', 'control API user (to create the benchmark device)', 'tenant@thingsboard.org')
    .option('--password <password>', 'control API password', 'tenant')
    .option('--token <token>', 'with --target: use this device token instead of creating a device (not with --devices above 1)')
    .option('--simulator [rate]', "also measure dhi simulate's CPU per request next to autocannon's and a raw client's paced by the simulator's own pacer on the same telemetry load (rate msg/s, default 1000), and on the mixed scenario next to the paced client at its rate; each side in a child process of its own, dhi simulate and the paced client at the same time, CPU over --duration of a run after a warm-up run (mixed: 3x --duration), over the requests counted as they ended in that window; each ratio beside both paced sides' send lag", decimal(0, true))
    .option('--report-dir <dir>', 'where the JSON results go', 'reports/bench')
    .action(async (options) => {
      const { runBench } = await import('./bench.js');
      await runBench(options);
    });
}

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('start the reference server, run the conformance suite and a 30 s mixed simulation of 1,000 devices against it, keep serving')
    .option('--port <n>', 'HTTP port of the reference server', integer(0, 65535), 8080)
    .option('--https-port <n>', 'HTTPS port of the reference server (-1: no HTTPS)', integer(-1, 65535), 8443)
    .option('--db <path>', 'SQLite database file of the reference server', './data/dhi.db')
    .option('--devices <n>', 'devices in the demo simulation', integer(1, 100_000), 1000)
    .addOption(durationOption('--duration <time>', 'length of the demo simulation', 30_000, '30s'))
    .option('--reports <dir>', 'where reports go', 'reports')
    .action(async (options) => {
      const { runDemo } = await import('./demo.js');
      await runDemo(options);
    });
}
