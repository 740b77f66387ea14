// The live presenter: on a TTY one status line rewritten in place (devices online, msg/s, p99 per
// path, errors); otherwise a plain line per interval. It only listens to engine events.
import type { EngineEvent } from './engine.js';
import type { IntervalView, PathName } from './metrics.js';

export interface ProgressOutput {
  write(text: string): void;
  isTTY: boolean;
  /** Terminal width: a live line longer than this would wrap and could not be rewritten. */
  columns?: number;
}

const SHORT: Record<PathName, string> = {
  telemetry: 'tel',
  attributePush: 'push',
  attributeWrite: 'attrW',
  rpc: 'rpc',
  rpcDelivery: 'rpcDlv',
  rpcReply: 'rpcRep',
  clientRpc: 'cRpc',
  firmware: 'fw',
};

export function formatTick(event: Extract<EngineEvent, { type: 'tick' }>): string {
  const parts = [`${String(event.second).padStart(4)}s`, `online ${event.online}`];
  let errors = 0;
  for (const [name, view] of Object.entries(event.paths) as [PathName, IntervalView][]) {
    errors += view.errors;
    if (view.ok) parts.push(`${SHORT[name]} ${view.ok}/s p99 ${view.p99Ms.toFixed(1)}ms`);
  }
  parts.push(`errors ${errors}`);
  return parts.join(' | ');
}

export function createProgress(out: ProgressOutput): (event: EngineEvent) => void {
  let live = false;
  const endLive = () => {
    if (live) out.write('\n');
    live = false;
  };
  return (event) => {
    if (event.type === 'tick') {
      const line = formatTick(event);
      if (out.isTTY) {
        out.write(`\r\x1b[2K${line.slice(0, (out.columns ?? 120) - 1)}`);
        live = true;
      } else out.write(`${line}\n`);
      return;
    }
    if (event.type === 'fleet-progress') {
      if (out.isTTY) {
        out.write(`\r\x1b[2Kdevices ready ${event.done}/${event.total}`);
        live = true;
      } else if (event.done === event.total || event.done % 1000 === 0) out.write(`devices ready ${event.done}/${event.total}\n`);
      return;
    }
    endLive();
    out.write(event.type === 'warning' ? `warning: ${event.message}\n` : `${event.phase}: ${event.message}\n`);
  };
}
