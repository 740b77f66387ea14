// The live presenter: once a second, a few lines that fit 80 columns, errors first, paths named as
// in the summary. On a TTY the block is rewritten in place; otherwise it is printed as it comes.
// It only listens to engine events.
import type { EngineEvent } from './simulation.js';
import { PATHS } from './metrics.js';
import { formatMs } from './report/format.js';

export interface ProgressOutput {
  write(text: string): void;
  isTTY: boolean;
  /** Terminal width; lines are cut to it (and never exceed 80 columns). */
  columns?: number;
}

export const PROGRESS_WIDTH = 80;
const NAME_WIDTH = Math.max(...PATHS.map((p) => p.length));

type Tick = Extract<EngineEvent, { type: 'tick' }>;

/** The lines of one interval: the run's state with its error count, then one line per active path. */
export function formatTick(event: Tick): string[] {
  let errors = 0;
  const lines: string[] = [];
  for (const name of PATHS) {
    const view = event.paths[name];
    if (!view || (!view.ok && !view.errors)) continue;
    errors += view.errors;
    const pathErrors = view.errors ? `  errors ${view.errors}` : '';
    // Requests that waited inside the simulator: its own backlog, not the target's time.
    const queued = view.queued ? `  queued ${view.queued}` : '';
    lines.push(`  ${name.padEnd(NAME_WIDTH)} ${String(view.ok).padStart(6)}/s  p99 ${formatMs(view.p99Ms).padStart(8)} ms${pathErrors}${queued}`);
  }
  const phase = event.phase === 'warmup' ? 'warm-up' : 'steady';
  return [`${String(event.second).padStart(4)}s ${phase.padEnd(7)} errors ${errors} | devicesOnline ${event.online}/${event.devices}`, ...lines];
}

export function createProgress(out: ProgressOutput): (event: EngineEvent) => void {
  const width = Math.min(PROGRESS_WIDTH, out.columns ?? PROGRESS_WIDTH);
  const fit = (line: string) => (line.length < width ? line : line.slice(0, width - 1));
  /** What is on screen to rewrite: nothing, an unfinished status line, or a block of n lines. */
  let live: { kind: 'none' } | { kind: 'line' } | { kind: 'block'; lines: number } = { kind: 'none' };
  const endLine = () => {
    if (live.kind === 'line') out.write('\n');
    live = { kind: 'none' };
  };
  return (event) => {
    if (event.type === 'measured') return;
    if (event.type === 'tick') {
      const lines = formatTick(event).map(fit);
      if (!out.isTTY) {
        out.write(`${lines.join('\n')}\n`);
        return;
      }
      let text = '';
      if (live.kind === 'block') text += `\x1b[${live.lines}F`; // back to the block's first line
      else endLine();
      for (const line of lines) text += `\x1b[2K${line}\n`;
      // A shorter block than the last leaves old lines below: clear them.
      if (live.kind === 'block' && live.lines > lines.length) text += '\x1b[0J';
      out.write(text);
      live = { kind: 'block', lines: lines.length };
      return;
    }
    if (event.type === 'fleet-progress') {
      if (out.isTTY) {
        if (live.kind === 'block') live = { kind: 'none' };
        out.write(`\r\x1b[2Kdevices ready ${event.done}/${event.total}`);
        live = { kind: 'line' };
      } else if (event.done === event.total || event.done % 1000 === 0) out.write(`devices ready ${event.done}/${event.total}\n`);
      return;
    }
    endLine();
    out.write(event.type === 'warning' ? `warning: ${event.message}\n` : `${event.phase}: ${event.message}\n`);
  };
}
