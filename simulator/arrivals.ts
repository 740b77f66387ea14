// The open-model scheduler: arrivals at a fixed rate, each sent at its own intended time (through
// the pacer, within about a millisecond), whether or not the previous ones have been answered.
// Arrival n (0-based) is meant for startAt + (n + 1) / rate. A late turn of the event loop sends
// the overdue arrivals at once, each with its own intended time, so the latency measured from that
// time includes the wait (the coordinated-omission correction) and the lateness shows in the send lag.
import { EARLY_MS, type Pacer } from './pacer.js';

export interface ArrivalOptions {
  /** Arrivals per second. */
  rate: number;
  /** clock.ts milliseconds. */
  startAt: number;
  send(intendedAt: number): void;
}

export interface Arrivals {
  /** Arrivals issued so far. */
  readonly issued: number;
  /** No arrival after this one. */
  stop(): void;
}

export function startArrivals(pacer: Pacer, options: ArrivalOptions): Arrivals {
  const gapMs = 1000 / options.rate;
  let issued = 0;
  let stopped = false;
  const due = (n: number) => options.startAt + (n + 1) * gapMs;
  const run = (_: null, at: number) => {
    if (stopped) return;
    issued++;
    options.send(at);
    // This turn may be late: every arrival due by now goes too, each with its own time (until a send stops them).
    let now = pacer.now();
    for (let next = due(issued); !stopped && next <= now + EARLY_MS; next = due(issued)) {
      issued++;
      options.send(next);
      now = pacer.now();
    }
    if (!stopped) pacer.at(due(issued), run, null, now);
  };
  pacer.at(due(0), run, null);
  return {
    get issued() {
      return issued;
    },
    stop() {
      stopped = true;
    },
  };
}
