// The end-of-run summary table printed to the console: the steady state, then the warm-up, in
// the fixed order of PATHS, every latency in one format.
import { PATHS } from '../metrics.js';
import { formatMs, formatRate } from './format.js';
import type { PathSummaries, Summary } from './summary.js';

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
}

const HEADER = ['path', 'ok', 'ok/s', 'p50', 'p90', 'p99', 'p99.9', 'max', 'errors'];

function rows(paths: PathSummaries): string[][] {
  return PATHS.flatMap((name) => {
    const p = paths[name];
    if (!p) return [];
    const l = p.latencyMs;
    return [[name, String(p.count), formatRate(p.rate), formatMs(l.p50), formatMs(l.p90), formatMs(l.p99), formatMs(l['p99.9']), formatMs(l.max), String(p.errors)]];
  });
}

function errorLines(paths: PathSummaries): string[] {
  return PATHS.flatMap((name) => {
    const classes = Object.entries(paths[name]?.errorsByClass ?? {});
    return classes.length ? [`  ${name} errors: ${classes.map(([c, n]) => `${c} x${n}`).join(', ')}`] : [];
  });
}

export function renderTable(summary: Summary): string {
  const steady = rows(summary.paths);
  const warmup = rows(summary.warmup.paths);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...[...steady, ...warmup].map((r) => r[i].length)));
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const lines = [`steady state, ${seconds(summary.steadyMs)} s (latency in ms, every outcome timed)`, pad(HEADER, widths), ...steady.map((r) => pad(r, widths)), ...errorLines(summary.paths)];
  if (warmup.length) {
    lines.push(`warm-up, ${seconds(summary.warmup.ms)} s (until ${summary.warmup.until})`, ...warmup.map((r) => pad(r, widths)), ...errorLines(summary.warmup.paths));
  }
  const c = summary.counters;
  const a = summary.attributeChanges;
  lines.push(
    `devicesOnline ${c.devicesOnline ?? 0}/${summary.devices}; telemetryPoints ${c.telemetryPoints ?? 0}; rpcDelivered ${c.rpcDelivered ?? 0}, rpcReplied ${c.rpcReplied ?? 0}; pollTimeouts ${c.pollTimeouts ?? 0}`,
  );
  if (a.written) lines.push(`attributeChanges: written ${a.written} = pushed ${a.pushed} + lost ${a.lost} (no poll open) + unconfirmed ${a.unconfirmed} (after the last push)`);
  const s = summary.simulator;
  lines.push(`simulator: ${s.processes} process(es), ${s.requests} requests, CPU ${s.cpuMs} ms = ${s.cpuMicrosPerRequest} µs/request, max RSS ${Math.round(s.maxRssBytes / 1048576)} MiB, connections ${s.peakConnections} at most, ${s.connectionsOpened} opened`);
  lines.push(`stop: every request ended ${(summary.stopMs / 1000).toFixed(1)} s after the load (at most --request-timeout ${summary.requestTimeoutMs / 1000} s)`);
  for (const [phase, paths] of [['steady', summary.paths], ['warm-up', summary.warmup.paths]] as const) {
    for (const name of PATHS) {
      const sending = paths[name]?.sending;
      if (sending?.generatorLimited) lines.push(`the simulator, not the target, limited ${name} (${phase}): ${sending.reason}`);
    }
  }
  for (const t of summary.thresholds) lines.push(`threshold ${t.expression}: ${t.passed ? 'pass' : 'FAIL'} (${t.message ?? `actual ${t.actual}`})`);
  if (summary.interrupted) lines.push('interrupted: the run was stopped early (Ctrl-C); what ran until then is above');
  return lines.join('\n');
}
