// report.html: one self-contained page (inline CSS, SVG and a few lines of JS; no network) with
// the latency distribution and the throughput and errors over time of every path.
import { PATHS, type PathName } from '../metrics.js';
import { formatMs, formatRate } from './format.js';
import type { PathSummaries, Summary } from './summary.js';
import { escapeHtml, lineChart, PALETTE, type Series } from './svg.js';

const PERCENTILE_TICKS = [
  { at: 0, label: '0%' },
  { at: 1, label: '90%' },
  { at: 2, label: '99%' },
  { at: 3, label: '99.9%' },
  { at: 4, label: '99.99%' },
  { at: 5, label: '99.999%' },
];

/** Percentiles on the usual HDR axis: 90 -> 1, 99 -> 2, 99.9 -> 3 ... */
function percentileX(p: number): number {
  return p >= 99.999 ? 5 : Math.log10(100 / (100 - p));
}

const DESCRIPTIONS: Record<PathName, string> = {
  telemetry: 'device telemetry POST (operation 1)',
  attributePush: 'shared-attribute write (REST) until the device poll answered (operation 4)',
  attributeWrite: 'shared-attribute write through the control API',
  rpc: 'two-way RPC: REST call sent -> device got it -> reply -> REST response',
  rpcDelivery: 'REST RPC call sent until the device poll answered (operation 5)',
  rpcReply: 'device RPC reply POST (operation 6)',
  clientRpc: 'device-side RPC (operation 7)',
  firmware: 'firmware download (operation 10)',
};

/** A cell: plain text, or text with a CSS class (threshold outcomes are coloured). */
type Cell = string | number | { text: string; cls: string };

function table(headers: string[], rows: Cell[][]): string {
  const head = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const cell = (c: Cell) => (typeof c === 'object' ? `<td class="${c.cls}">${escapeHtml(c.text)}</td>` : `<td>${escapeHtml(String(c))}</td>`);
  const body = rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

const PATH_HEADERS = ['path', 'what is timed', 'ok', 'ok/s', 'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'max ms', 'errors', 'error classes', 'timed from'];

function pathRows(paths: PathSummaries): Cell[][] {
  return PATHS.flatMap((name) => {
    const p = paths[name];
    if (!p) return [];
    const l = p.latencyMs;
    const classes = Object.entries(p.errorsByClass).map(([c, n]) => `${c}: ${n}`).join(', ');
    const timed = p.correctedForCoordinatedOmission ? 'intended send time' : p.timedFrom.intended ? 'mixed' : p.timedFrom.sent ? 'actual send' : '-';
    return [[name, DESCRIPTIONS[name], p.count, formatRate(p.rate), formatMs(l.p50), formatMs(l.p90), formatMs(l.p99), formatMs(l['p99.9']), formatMs(l.max), p.errors, classes || '-', timed]];
  });
}

function timeTicks(seconds: number): { at: number; label: string }[] {
  const step = Math.max(1, Math.ceil(seconds / 10));
  const ticks = [];
  for (let s = 0; s <= seconds; s += step) ticks.push({ at: s, label: `${s}s` });
  return ticks;
}

export function renderHtml(summary: Summary): string {
  const names = PATHS.filter((name) => summary.paths[name] || summary.warmup.paths[name] || summary.timeline.paths[name]);
  const color = (name: PathName) => PALETTE[PATHS.indexOf(name) % PALETTE.length];
  const latencySeries: Series[] = names.map((name) => ({
    name,
    color: color(name),
    points: (summary.paths[name]?.distribution ?? []).map(([p, ms]) => [percentileX(p), ms]),
  }));
  const ticks = timeTicks(summary.timeline.seconds);
  // One small chart per path: lines of equal rate (rpc, rpcDelivery, rpcReply ...) would hide each other in one.
  const throughputCharts = names.map((name) =>
    lineChart({
      title: `${name}: successful requests per second`,
      series: [{ name, color: color(name), points: (summary.timeline.paths[name]?.ok ?? []).map((n, s) => [s, n]) }],
      xLabel: 'seconds into the run',
      yLabel: 'per second',
      xTicks: ticks,
      height: 170,
    }),
  );
  const p99Series: Series[] = names.map((name) => ({
    name,
    color: color(name),
    points: (summary.timeline.paths[name]?.p99Ms ?? []).flatMap((ms, s): [number, number][] => (ms > 0 ? [[s, ms]] : [])),
  }));
  const errorSeries: Series[] = names
    .filter((name) => summary.timeline.paths[name]?.errors.some((n) => n > 0))
    .map((name) => ({ name: `${name} errors`, color: color(name), dashed: true, points: (summary.timeline.paths[name]?.errors ?? []).map((n, s) => [s, n]) }));
  const counterRows = Object.entries(summary.counters).map(([k, v]) => [k, v ?? 0]);
  const a = summary.attributeChanges;
  const sim = summary.simulator;
  const simRows: (string | number)[][] = [
    ['processes', sim.processes],
    ['requests made or answered', sim.requests],
    ['CPU time (ms)', sim.cpuMs],
    ['CPU per request (µs)', sim.cpuMicrosPerRequest],
    ['max RSS (MiB, all processes)', Math.round(sim.maxRssBytes / 1048576)],
    ['source addresses', sim.sourceAddresses.join(', ') || 'system default'],
  ];
  const thresholdRows: Cell[][] = summary.thresholds.map((t) => [t.expression, t.actual ?? '-', { text: t.passed ? 'pass' : 'FAIL', cls: t.passed ? 'pass' : 'fail' }, t.message ?? '']);
  const s = summary.scenario;
  const configRows: (string | number)[][] = [
    ['target', summary.target],
    ['control API', summary.controlUrl],
    ['scenario', s.name],
    ['profile', s.profileName],
    ['devices', summary.devices],
    ['fleet from', `${summary.fleet.source} (${summary.fleet.addressable} addressable by the driver)`],
    ['telemetry', s.telemetry.model === 'open' ? `open model, ${s.telemetry.rate} msg/s, ${s.telemetry.form}` : s.telemetry.model === 'closed' ? `closed model, every ${s.telemetry.intervalMs} ms, ${s.telemetry.form}` : 'off'],
    ['polls', `attributes: ${s.polls.attributes}, rpc: ${s.polls.rpc}, timeout ${s.polls.timeoutMs} ms`],
    ['driver', `rpc ${s.driver.rpcRate}/s (${s.driver.rpcApi}), attributes ${s.driver.attrRate}/s`],
    ['duration', `${summary.durationMs / 1000} s (ran ${Math.round(summary.runMs) / 1000} s)`],
    ['workers', summary.workers],
    ['seed', summary.seed],
    ['ramp', summary.rampPerSecond === null ? 'all at once' : `${summary.rampPerSecond} devices/s`],
  ];
  const verdict = summary.interrupted ? 'INTERRUPTED (Ctrl-C)' : summary.thresholds.length ? (summary.passed ? 'thresholds passed' : 'THRESHOLDS BREACHED') : 'no thresholds';
  const warmupRows = pathRows(summary.warmup.paths);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>dhi simulate - ${escapeHtml(s.name)} - ${escapeHtml(summary.startedAt)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#111;max-width:1100px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}th{background:#f3f4f6}
.verdict{display:inline-block;padding:2px 8px;border-radius:4px;background:${summary.passed ? '#dcfce7' : '#fee2e2'}}
.chart{display:block;margin:8px 0;max-width:100%;height:auto}.chart .grid{stroke:#e5e7eb}.chart .tick{font-size:11px;fill:#444}
.chart .axis{font-size:12px;fill:#222}.chart .chart-title{font-size:13px;font-weight:600}.chart .legend{cursor:pointer}
.chart .off{opacity:.15}.note{color:#555;font-size:12px}
td.pass{background:#dcfce7;color:#166534;font-weight:600}td.fail{background:#fee2e2;color:#991b1b;font-weight:600}
</style></head><body>
<h1>dhi simulate: ${escapeHtml(s.name)}, ${summary.devices} devices</h1>
<p>${escapeHtml(summary.startedAt)} against <code>${escapeHtml(summary.target)}</code> <span class="verdict">${verdict}</span></p>
<h2>Paths: steady state (${formatRate(summary.steadyMs / 1000)} s)</h2>
${table(PATH_HEADERS, pathRows(summary.paths))}
<p class="note">Every outcome is timed, errors included; dropped arrivals (never sent) are counted as errors. Open-model paths (driver calls${summary.model === 'open' ? ', telemetry' : ''}) are timed from their intended send time, which corrects for coordinated omission. ${escapeHtml(summary.clocks)}</p>
<h2>Warm-up (${formatRate(summary.warmup.ms / 1000)} s, until ${escapeHtml(summary.warmup.until)})</h2>
${warmupRows.length ? table(PATH_HEADERS, warmupRows) : '<p>Nothing ran during the warm-up.</p>'}
<h2>Attribute changes</h2>
<p>written ${a.written} = pushed ${a.pushed} + lost ${a.lost} (written while the device had no poll open) + unconfirmed ${a.unconfirmed} (written after the device's last push)</p>
<h2>Latency distribution</h2>
${lineChart({ title: 'latency by percentile', series: latencySeries, xLabel: 'percentile', yLabel: 'ms', xTicks: PERCENTILE_TICKS })}
<h2>Throughput over time</h2>
${throughputCharts.join('\n')}
${lineChart({ title: 'p99 latency per second', series: p99Series, xLabel: 'seconds into the run', yLabel: 'ms', xTicks: ticks })}
${errorSeries.length ? lineChart({ title: 'errors per second', series: errorSeries, xLabel: 'seconds into the run', yLabel: 'per second', xTicks: ticks }) : '<p>No errors.</p>'}
<h2>Thresholds</h2>
${thresholdRows.length ? table(['threshold', 'actual', 'outcome', 'note'], thresholdRows) : '<p>None given.</p>'}
<h2>Counters</h2>
${table(['counter', 'value'], counterRows)}
<h2>The simulator itself</h2>
${table(['measure', 'value'], simRows)}
<h2>Configuration</h2>
${table(['setting', 'value'], configRows)}
<script>
// Click a legend entry to hide or show its series.
for (const legend of document.querySelectorAll('.chart .legend')) {
  legend.addEventListener('click', () => {
    const svg = legend.closest('svg');
    for (const line of svg.querySelectorAll('polyline[data-series="' + legend.dataset.series + '"]')) line.classList.toggle('off');
    legend.classList.toggle('off');
  });
}
document.body.dataset.ready = 'true';
</script>
</body></html>
`;
}
