import { describe, expect, it } from 'vitest';
import type { IntervalView } from '../aggregate.js';
import { PATHS, type PathName } from '../metrics.js';
import { createProgress, formatTick, PROGRESS_WIDTH } from '../progress.js';

const tick = {
  type: 'tick' as const,
  second: 12,
  online: 950,
  devices: 1000,
  phase: 'steady' as const,
  paths: { rpc: { ok: 10, errors: 0, p99Ms: 40, queued: 0 }, telemetry: { ok: 480, errors: 2, p99Ms: 12.345, queued: 3 } },
};

/** Every path busy with large numbers: the widest lines a run can print. */
const busiest = {
  ...tick,
  second: 86_399,
  online: 1_000_000,
  devices: 1_000_000,
  phase: 'warmup' as const,
  paths: Object.fromEntries(PATHS.map((p) => [p, { ok: 999_999, errors: 999_999, p99Ms: 599_999.999, queued: 999_999 }])) as Record<PathName, IntervalView>,
};

describe('progress', () => {
  it("prints errors first, then each path by its summary name in the summary order, with the simulator's own backlog", () => {
    expect(formatTick(tick)).toEqual([
      '  12s steady  errors 2 | devicesOnline 950/1000',
      '  telemetry         480/s  p99     12.3 ms  errors 2  queued 3',
      '  rpc                10/s  p99     40.0 ms',
    ]);
  });

  it('keeps every line within 80 columns, even with every path busy', () => {
    const lines = formatTick(busiest);
    expect(lines).toHaveLength(1 + PATHS.length);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(PROGRESS_WIDTH);
    for (const name of PATHS) expect(lines.some((l) => l.startsWith(`  ${name} `))).toBe(true);
  });

  it('prints the lines per interval when not on a terminal', () => {
    const out: string[] = [];
    const present = createProgress({ write: (t) => out.push(t), isTTY: false });
    present({ type: 'phase', phase: 'running', message: '1000 devices' });
    present(tick);
    present({ type: 'warning', message: 'careful' });
    expect(out).toEqual(['running: 1000 devices\n', `${formatTick(tick).join('\n')}\n`, 'warning: careful\n']);
  });

  it('rewrites its block in place on a terminal, cut to a narrow terminal, and leaves it before other output', () => {
    const out: string[] = [];
    const present = createProgress({ write: (t) => out.push(t), isTTY: true, columns: 30 });
    present(tick);
    present(tick);
    present({ type: 'phase', phase: 'stopping', message: 'waiting' });
    expect(out[0]).toBe(formatTick(tick).map((line) => `\x1b[2K${line.slice(0, 29)}\n`).join(''));
    expect(out[1]).toBe(`\x1b[3F${out[0]}`);
    expect(out[2]).toBe('stopping: waiting\n');
  });
});
