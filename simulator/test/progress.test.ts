import { describe, expect, it } from 'vitest';
import { createProgress } from '../progress.js';

const tick = {
  type: 'tick' as const,
  second: 12,
  online: 950,
  paths: { telemetry: { ok: 480, errors: 2, p99Ms: 12.345 }, rpc: { ok: 10, errors: 0, p99Ms: 40 } },
};

describe('progress', () => {
  it('prints a plain line per interval when not on a terminal', () => {
    const lines: string[] = [];
    const present = createProgress({ write: (t) => lines.push(t), isTTY: false });
    present({ type: 'phase', phase: 'running', message: '1000 devices' });
    present(tick);
    present({ type: 'warning', message: 'careful' });
    expect(lines).toEqual(['running: 1000 devices\n', '  12s | online 950 | tel 480/s p99 12.3ms | rpc 10/s p99 40.0ms | errors 2\n', 'warning: careful\n']);
  });

  it('rewrites one status line on a terminal, cut to its width, and ends it before other output', () => {
    const out: string[] = [];
    const present = createProgress({ write: (t) => out.push(t), isTTY: true, columns: 30 });
    present(tick);
    present(tick);
    present({ type: 'phase', phase: 'stopping', message: 'waiting' });
    expect(out[0]).toBe('\r\x1b[2K  12s | online 950 | tel 480/');
    expect(out[1]).toBe(out[0]);
    expect(out.slice(2)).toEqual(['\n', 'stopping: waiting\n']);
  });
});
