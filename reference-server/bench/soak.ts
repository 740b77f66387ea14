// `npm run bench:soak`: a long run of a mixed fleet (dhi simulate's mixed scenario: telemetry,
// attribute and RPC long polls, shared attributes and server RPC from the driver, client RPC) against
// `dhi serve` in a child process, to show that it stays flat. Each minute it records the server's
// resident memory and open descriptors, the sizes of the database and its WAL (the peaks of samples
// taken every 5 s; the WAL's, which cycles, every 250 ms), the rows of the rpc table, the requests,
// errors (by path and the simulator's error class) and p99 latency of each path in that minute, and
// the CPU that other programs took meanwhile. At the end: the verdict of the issue's goals after the
// warm-up (RSS and descriptors within 10 %, the WAL bounded, p99 steady, no error, and with --ttl the
// database within 10 % once the TTL window is full, its growth per minute reported). JSON in
// reports/bench-soak/<timestamp>.json.
//
//   npm run bench:soak -- --duration 60m --devices 2000 --interval 1000 --ttl 300
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Command } from 'commander';
import { durationMs, integer } from '../../cli/option-parsers.js';
import { configFromOptions } from '../../simulator/cli.js';
import { runSimulation } from '../../simulator/engine.js';
import { DEFAULT_MAX_CONNECTIONS_PER_DEVICE, DEFAULT_REQUEST_TIMEOUT_MS } from '../../simulator/simulation.js';
import { addEncoded, createHistogram, latencyStats } from '../../simulator/histograms.js';
import { errorTotal, type ErrorClass, type MetricsDelta, type PathName } from '../../simulator/metrics.js';
import { WAL_CHECKPOINT_PAGES, walFileBytes } from '../store/sqlite-connection.js';
import { startServe } from './serve-process.js';
import { cpuSeconds, peakOf, sampleServer, walBytesNow, type ServerSample } from './soak-sample.js';
import type { Histogram } from 'hdr-histogram-js';

const SAMPLE_MS = 5000;
/** The WAL grows and is truncated within seconds: its size is sampled more often (a stat call). */
const WAL_SAMPLE_MS = 250;
const MINUTE_MS = 60_000;
/**
 * The goals: RSS and descriptors within 10 % after the warm-up, each minute's p99 within twice its
 * median minute (or within 25 ms of it: a few milliseconds of scheduling on a shared machine are not
 * a trend).
 */
const FLAT = 1.1;
const STEADY = 2;
const STEADY_SLACK_MS = 25;

interface SoakOptions {
  duration: number;
  warmup: number;
  devices: number;
  interval: number;
  ttl: number;
}

type ErrorCounts = Partial<Record<ErrorClass, number>>;

interface Minute {
  minute: number;
  server: ServerSample;
  /** Rows of the rpc table at the minute's end (only persistent RPCs are stored). */
  rpcRows: number;
  requests: number;
  errors: number;
  /** The errors by path and class ('timeout', 'status 503', ...): what each error was. */
  errorClasses: Partial<Record<PathName, ErrorCounts>>;
  p99Ms: Partial<Record<PathName, number>>;
  /** CPU cores that other programs on the machine used in the minute (the server's and the simulator's left out). */
  othersCpuCores: number;
}

/** Measurements of the current minute, folded from the simulator's deltas. */
function createWindow() {
  let paths = new Map<PathName, { ok: number; errors: number; classes: ErrorCounts; histogram: Histogram }>();
  return {
    absorb(delta: MetricsDelta) {
      for (const phase of [delta.warmup, delta.steady]) {
        for (const [path, d] of Object.entries(phase) as [PathName, NonNullable<(typeof phase)[PathName]>][]) {
          let cell = paths.get(path);
          if (!cell) paths.set(path, (cell = { ok: 0, errors: 0, classes: {}, histogram: createHistogram() }));
          cell.ok += d.ok;
          cell.errors += errorTotal(d.errors);
          for (const [kind, n] of Object.entries(d.errors) as [ErrorClass, number][]) cell.classes[kind] = (cell.classes[kind] ?? 0) + n;
          addEncoded(cell.histogram, d.histogram);
        }
      }
    },
    close(minute: number, server: ServerSample, rpcRows: number, othersCpuCores: number): Minute {
      const closed = paths;
      paths = new Map();
      const cells = [...closed.entries()];
      return {
        minute,
        server,
        rpcRows,
        requests: cells.reduce((n, [, c]) => n + c.ok + c.errors, 0),
        errors: cells.reduce((n, [, c]) => n + c.errors, 0),
        errorClasses: Object.fromEntries(cells.filter(([, c]) => c.errors > 0).map(([path, c]) => [path, c.classes])),
        p99Ms: Object.fromEntries(cells.map(([path, c]) => [path, latencyStats(c.histogram).p99])),
        othersCpuCores,
      };
    },
  };
}

const spread = (values: number[]) => (values.length ? Math.max(...values) / Math.max(1, Math.min(...values)) : 1);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Least-squares slope of the database size, bytes a minute. */
function growthPerMinute(minutes: Minute[]): number {
  if (minutes.length < 2) return 0;
  const xs = minutes.map((m) => m.minute);
  const ys = minutes.map((m) => m.server.dbBytes);
  const [mx, my] = [xs.reduce((a, b) => a + b) / xs.length, ys.reduce((a, b) => a + b) / ys.length];
  const covariance = xs.reduce((n, x, i) => n + (x - mx) * (ys[i] - my), 0);
  return Math.round(covariance / xs.reduce((n, x) => n + (x - mx) ** 2, 0));
}

/**
 * The database's trend after the warm-up and once the TTL window is full (values older than the TTL
 * are being deleted as fast as new ones come): flat within 10 %. Without --ttl the time series grow
 * by design: the growth is reported, not judged.
 */
function databaseTrend(minutes: Minute[], warmupMinutes: number, ttlSeconds: number) {
  const from = Math.max(warmupMinutes, Math.ceil(ttlSeconds / 60) + 1);
  const window = minutes.filter((m) => m.minute > from);
  const spreadOf = spread(window.map((m) => m.server.dbBytes));
  return {
    afterMinute: from,
    growthBytesPerMinute: growthPerMinute(window),
    spread: spreadOf,
    rpcRowsAtEnd: minutes.at(-1)?.rpcRows ?? 0,
    judged: ttlSeconds > 0,
    flat: ttlSeconds === 0 || (window.length > 0 && spreadOf <= FLAT),
  };
}

/**
 * The WAL after the warm-up: between two checkpoints it holds the checkpoint threshold's pages and the
 * transaction that crosses it, which writes each page of the database once at most (a fold of the
 * telemetry log is the largest), and the store cuts the file back after each checkpoint
 * (journal_size_limit). Every minute's peak stays under that bound, which the database's own size
 * (judged flat with --ttl) keeps from growing; a WAL past it means checkpoints are not keeping up.
 */
function walBound(steady: Minute[]) {
  const peakBytes = Math.max(0, ...steady.map((m) => m.server.walBytes));
  const boundBytes = walFileBytes(WAL_CHECKPOINT_PAGES + Math.ceil(Math.max(0, ...steady.map((m) => m.server.dbBytes)) / 4096));
  return { peakBytes, boundBytes, bounded: peakBytes <= boundBytes };
}

/** The goals, over the minutes after the warm-up. */
function verdictOf(minutes: Minute[], warmupMinutes: number, ttlSeconds: number) {
  const steady = minutes.filter((m) => m.minute > warmupMinutes);
  const db = databaseTrend(minutes, warmupMinutes, ttlSeconds);
  // Memory follows the data until the TTL window is full (62-minute soak: 303 -> 316 MB over minutes
  // 3-5 as the database grew 19 -> 31 MB, then flat): judged over the database's window.
  const rssSpread = spread(minutes.filter((m) => m.minute > db.afterMinute).map((m) => m.server.rssBytes));
  const fdSpread = spread(steady.map((m) => m.server.openFds));
  const wal = walBound(steady);
  const paths = [...new Set(steady.flatMap((m) => Object.keys(m.p99Ms)))] as PathName[];
  const p99 = Object.fromEntries(paths.map((path) => {
    const series = steady.map((m) => m.p99Ms[path]).filter((v): v is number => v !== undefined);
    const [mid, max] = [median(series), Math.max(...series)];
    return [path, { medianMs: mid, maxMs: max, steady: max <= STEADY * mid || max - mid <= STEADY_SLACK_MS }];
  }));
  const errors = minutes.reduce((n, m) => n + m.errors, 0);
  const others = steady.map((m) => m.othersCpuCores);
  return {
    minutesAfterWarmup: steady.length,
    rss: { spread: rssSpread, flat: rssSpread <= FLAT },
    openFds: { spread: fdSpread, flat: fdSpread <= FLAT },
    wal,
    db,
    p99,
    errors,
    // Not judged: what other programs took of the machine, which explains a p99 that is not steady.
    othersCpuCores: { median: median(others), max: Math.max(0, ...others) },
    passed: steady.length > 0 && rssSpread <= FLAT && fdSpread <= FLAT && wal.bounded && db.flat && errors === 0 && Object.values(p99).every((p) => p.steady),
  };
}

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);

async function soak(options: SoakOptions): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dhi-bench-soak-'));
  const db = join(dir, 'soak.db');
  const serve = await startServe(db, false, ['--ttl', String(options.ttl)]);
  // A reader of its own: the rpc table's rows at each minute's end.
  const reader = new Database(db, { readonly: true, fileMustExist: true });
  const countRpcs = reader.prepare('SELECT count(*) FROM rpc').pluck();
  const startedAt = new Date().toISOString();
  const window = createWindow();
  const minutes: Minute[] = [];
  let samples: ServerSample[] = [];
  let minuteStarted = Date.now();
  const sampler = setInterval(() => samples.push(sampleServer(serve.child.pid!, db)), SAMPLE_MS);
  let walPeak = 0;
  const walSampler = setInterval(() => (walPeak = Math.max(walPeak, walBytesNow(db))), WAL_SAMPLE_MS);
  const ourPids = [serve.child.pid!, process.pid];
  let cpuAtStart = cpuSeconds(ourPids);
  const closeMinute = () => {
    const [cpu, seconds] = [cpuSeconds(ourPids), (Date.now() - minuteStarted) / 1000];
    const othersCpuCores = Math.max(0, cpu.machine - cpu.ours - (cpuAtStart.machine - cpuAtStart.ours)) / seconds;
    cpuAtStart = cpu;
    minuteStarted = Date.now();
    samples.push(sampleServer(serve.child.pid!, db));
    const peak = peakOf(samples);
    const minute = window.close(minutes.length + 1, { ...peak, walBytes: Math.max(peak.walBytes, walPeak) }, countRpcs.get() as number, Math.round(othersCpuCores * 100) / 100);
    samples = [];
    walPeak = 0;
    minutes.push(minute);
    const p99 = Object.entries(minute.p99Ms).map(([path, ms]) => `${path} ${ms}`).join(', ');
    const classes = Object.entries(minute.errorClasses).flatMap(([path, counts]) => Object.entries(counts).map(([kind, n]) => `${path} ${kind} ${n}`));
    console.log(`minute ${minute.minute}: RSS ${mb(minute.server.rssBytes)} MB, ${minute.server.openFds} fds, db ${mb(minute.server.dbBytes)} MB (${minute.rpcRows} rpc rows), WAL ${mb(minute.server.walBytes)} MB, ${minute.requests} requests, ${minute.errors} errors${classes.length ? ` (${classes.join(', ')})` : ''}, p99 ms: ${p99}; other programs: ${minute.othersCpuCores} cores`);
  };
  const minuteTimer = setInterval(closeMinute, MINUTE_MS);
  try {
    const config = configFromOptions({
      target: serve.http, devices: options.devices, duration: options.duration, warmup: options.warmup, scenario: 'mixed',
      interval: options.interval, username: 'tenant@thingsboard.org', password: 'tenant', reportDir: '', workers: 0, seed: 1,
      keepDevices: false, insecure: false, prometheusHost: '127.0.0.1', prometheusLinger: 0,
      maxConnectionsPerDevice: DEFAULT_MAX_CONNECTIONS_PER_DEVICE, requestTimeout: DEFAULT_REQUEST_TIMEOUT_MS,
    });
    console.error(`bench:soak: ${options.devices} devices (mixed, telemetry every ${options.interval} ms), ${options.duration / MINUTE_MS} min, dhi serve --ttl ${options.ttl}, database ${db}`);
    await runSimulation(config, (event) => {
      if (event.type === 'measured') window.absorb(event.delta);
      if (event.type === 'warning') console.error(`bench:soak: simulator: ${event.message}`);
    });
  } finally {
    clearInterval(sampler);
    clearInterval(walSampler);
    clearInterval(minuteTimer);
  }
  // The last, partial minute counts when it holds more than half a minute of the run.
  if (Date.now() - minuteStarted > MINUTE_MS / 2) closeMinute();
  reader.close();
  serve.child.kill('SIGTERM');
  const exitCode = await serve.exited;
  const verdict = verdictOf(minutes, Math.ceil(options.warmup / MINUTE_MS), options.ttl);
  const results = { startedAt, node: process.version, options, serverExitCode: exitCode, minutes, verdict };
  const out = join('reports', 'bench-soak');
  mkdirSync(out, { recursive: true });
  const file = join(out, `${startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  rmSync(dir, { recursive: true, force: true });
  console.log(JSON.stringify(verdict, null, 2));
  console.log(`bench:soak: ${verdict.passed ? 'flat' : 'NOT flat'}; results in ${file}`);
  if (!verdict.passed || exitCode !== 0) process.exitCode = 1;
}

const program = new Command('bench:soak')
  .description('a long mixed-fleet run against dhi serve: RSS, descriptors, WAL size and p99 per minute')
  .option('--duration <time>', 'length of the run: 10m, 60m', durationMs, 10 * MINUTE_MS)
  .option('--warmup <time>', 'the start of the run left out of the verdict (fleet set-up, JIT, the heap growing to its working size)', durationMs, 2 * MINUTE_MS)
  .option('--devices <n>', 'devices of the mixed fleet', integer(1, 20_000), 1000)
  .option('--interval <ms>', 'telemetry interval of each device', integer(1), 1000)
  .option('--ttl <seconds>', 'dhi serve --ttl: retention runs during the soak (0: none)', integer(0), 300)
  .action((options: SoakOptions) => soak(options));
await program.parseAsync(process.argv);
