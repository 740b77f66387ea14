// A small inline-SVG line chart: no library, no network, readable without JavaScript.

export interface Series {
  name: string;
  color: string;
  points: [number, number][];
  dashed?: boolean;
}

export interface ChartOptions {
  title: string;
  series: Series[];
  xLabel: string;
  yLabel: string;
  /** Tick positions in x units, with labels. */
  xTicks: { at: number; label: string }[];
  width?: number;
  height?: number;
}

export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

function format(value: number): string {
  if (value >= 1000) return `${Math.round(value / 100) / 10}k`;
  if (value >= 10) return String(Math.round(value));
  return String(Math.round(value * 100) / 100);
}

export const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777'];

export function lineChart(options: ChartOptions): string {
  const width = options.width ?? 860;
  const height = options.height ?? 300;
  // The legend has a column of its own, right of the plot, so it never hides a line.
  const pad = { left: 60, right: 170, top: 30, bottom: 45 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const all = options.series.flatMap((s) => s.points);
  const xMin = Math.min(0, ...all.map((p) => p[0]), ...options.xTicks.map((t) => t.at));
  const xMax = Math.max(1, ...all.map((p) => p[0]), ...options.xTicks.map((t) => t.at));
  const yMax = niceMax(Math.max(0, ...all.map((p) => p[1])));
  const x = (v: number) => pad.left + ((v - xMin) / (xMax - xMin || 1)) * plotW;
  const y = (v: number) => pad.top + plotH - (v / yMax) * plotH;
  const parts: string[] = [];
  parts.push(`<text x="${width / 2}" y="18" text-anchor="middle" class="chart-title">${escapeHtml(options.title)}</text>`);
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4;
    parts.push(`<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(v)}" y2="${y(v)}" class="grid"/>`);
    parts.push(`<text x="${pad.left - 6}" y="${y(v) + 4}" text-anchor="end" class="tick">${format(v)}</text>`);
  }
  for (const tick of options.xTicks) {
    parts.push(`<line x1="${x(tick.at)}" x2="${x(tick.at)}" y1="${pad.top}" y2="${pad.top + plotH}" class="grid"/>`);
    parts.push(`<text x="${x(tick.at)}" y="${pad.top + plotH + 16}" text-anchor="middle" class="tick">${escapeHtml(tick.label)}</text>`);
  }
  parts.push(`<text x="${pad.left + plotW / 2}" y="${height - 6}" text-anchor="middle" class="axis">${escapeHtml(options.xLabel)}</text>`);
  parts.push(`<text x="14" y="${pad.top + plotH / 2}" text-anchor="middle" class="axis" transform="rotate(-90 14 ${pad.top + plotH / 2})">${escapeHtml(options.yLabel)}</text>`);
  options.series.forEach((s, i) => {
    if (!s.points.length) return;
    const d = s.points.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ');
    const dash = s.dashed ? ' stroke-dasharray="5 3"' : '';
    parts.push(`<polyline data-series="${escapeHtml(s.name)}" points="${d}" fill="none" stroke="${s.color}" stroke-width="2"${dash}><title>${escapeHtml(s.name)}</title></polyline>`);
    const ly = pad.top + 4 + i * 16;
    parts.push(
      `<g class="legend" data-series="${escapeHtml(s.name)}"><rect x="${width - pad.right + 16}" y="${ly - 8}" width="10" height="10" fill="${s.color}"/><text x="${width - pad.right + 32}" y="${ly + 1}" class="tick">${escapeHtml(s.name)}</text></g>`,
    );
  });
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(options.title)}">${parts.join('')}</svg>`;
}
