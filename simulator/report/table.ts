// The end-of-run summary table printed to the console.
import type { PathName } from '../metrics.js';
import type { Summary } from './summary.js';

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
}

export function renderTable(summary: Summary): string {
  const header = ['path', 'ok', 'ok/s', 'p50', 'p90', 'p99', 'p99.9', 'max', 'errors'];
  const rows = (Object.keys(summary.paths) as PathName[]).map((name) => {
    const p = summary.paths[name]!;
    const l = p.latencyMs;
    return [name, String(p.count), String(p.rate), `${l.p50}`, `${l.p90}`, `${l.p99}`, `${l['p99.9']}`, `${l.max}`, String(p.errors)];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const lines = [pad(header, widths) + '   (latency in ms)', ...rows.map((r) => pad(r, widths))];
  for (const name of Object.keys(summary.paths) as PathName[]) {
    const classes = Object.entries(summary.paths[name]!.errorsByClass);
    if (classes.length) lines.push(`  ${name} errors: ${classes.map(([c, n]) => `${c} x${n}`).join(', ')}`);
  }
  const c = summary.counters;
  lines.push(
    `devices online ${c.devicesOnline ?? 0}/${summary.devices}; telemetry points ${c.telemetryPoints ?? 0}; updates delivered ${c.updatesDelivered ?? 0}; ` +
      `rpc delivered ${c.rpcDelivered ?? 0}, replied ${c.rpcReplied ?? 0}; poll timeouts ${c.pollTimeouts ?? 0}${c.dropped ? `; DROPPED arrivals ${c.dropped}` : ''}`,
  );
  const s = summary.simulator;
  lines.push(
    `simulator: ${s.processes} process(es), ${s.requests} requests, CPU ${s.cpuMs} ms = ${s.cpuMicrosPerRequest} µs/request, max RSS ${Math.round(s.maxRssBytes / 1048576)} MiB`,
  );
  for (const t of summary.thresholds) lines.push(`threshold ${t.expression}: ${t.passed ? 'pass' : 'FAIL'} (actual ${t.actual})`);
  return lines.join('\n');
}
