// The open-model scheduler: arrivals at a fixed rate, each with its intended send time, whether
// or not the previous ones have been answered. A late timer tick sends the overdue arrivals at
// once, still stamped with the time they were meant for, so the latency measured from that stamp
// includes the wait (the coordinated-omission correction). Beyond `maxInFlight` an arrival is not
// sent: the caller counts it as a `dropped` error of its path.
import type { InFlight } from './in-flight.js';

export interface ArrivalOptions {
  /** Arrivals per second. */
  rate: number;
  /** clock.ts milliseconds; arrival n (0-based) is intended for startAt + (n + 1) / rate. */
  startAt: number;
  maxInFlight: number;
  inFlight: InFlight;
  send(intendedAt: number): Promise<unknown>;
  drop(intendedAt: number): void;
}

export interface Arrivals {
  /** Issue every arrival due by `now` (clock.ts ms). */
  tick(now: number): void;
  /** Arrivals issued so far, sent or dropped. */
  readonly issued: number;
}

export function createArrivals(options: ArrivalOptions): Arrivals {
  const perMs = options.rate / 1000;
  let issued = 0;
  return {
    tick(now) {
      const due = Math.floor((now - options.startAt) * perMs);
      for (; issued < due; issued++) {
        const intendedAt = options.startAt + (issued + 1) / perMs;
        if (options.inFlight.count >= options.maxInFlight) options.drop(intendedAt);
        else void options.inFlight.track(options.send(intendedAt));
      }
    },
    get issued() {
      return issued;
    },
  };
}
