// What the simulator counts as its requests: every request it sent that ended (answered, failed,
// timed out or cut at the end; not one dropped before it left), and every long-poll answer or
// failure. The run's summary reports this as simulator.requests, over its totals; dhi bench
// --simulator counts it over the measurement deltas read inside its window (bench-side.ts).
import { errorTotal, type CounterName, type ErrorClass, type PathName } from './metrics.js';

/** Paths whose requests the simulator itself sends (poll answers are counted through counters). */
const SENT_PATHS: readonly PathName[] = ['telemetry', 'attributeWrite', 'rpc', 'rpcReply', 'clientRpc', 'firmware'];
const POLL_PATHS: readonly PathName[] = ['attributePush', 'rpcDelivery'];

/** A path's outcomes: successes, and errors by class. */
type Ends = { ok: number; errors: Partial<Record<ErrorClass, number>> };

/** The requests that ended in `phases` (a path's figures, one record per phase) and `counters`. */
export function requestsEnded(phases: Partial<Record<PathName, Ends>>[], counters: Partial<Record<CounterName, number>>): number {
  let requests = (counters.attributePolls ?? 0) + (counters.rpcPolls ?? 0) + (counters.pollTimeouts ?? 0);
  for (const paths of phases) {
    for (const name of SENT_PATHS) {
      const ends = paths[name];
      if (ends) requests += ends.ok + errorTotal(ends.errors) - (ends.errors.dropped ?? 0);
    }
    for (const name of POLL_PATHS) requests += errorTotal(paths[name]?.errors ?? {});
  }
  return requests;
}
