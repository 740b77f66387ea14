// The open-model scheduler: arrivals at a fixed rate, each with its intended send time, whether
// or not the previous ones have been answered. Arrivals go out in slots of `slotMs` (the
// scheduler's tick): the ones whose exact time falls in a slot are due, and stamped, at the slot's
// end, so the tick's granularity is not measured as server latency. A late tick sends the overdue
// arrivals at once, still stamped with their slot's time, so the latency measured from that stamp
// includes the wait (the coordinated-omission correction). Beyond `maxInFlight` an arrival is not
// sent: the caller counts it as a `dropped` error of its path.
import type { InFlight } from './in-flight.js';

export interface ArrivalOptions {
  /** Arrivals per second. */
  rate: number;
  /** clock.ts milliseconds; arrival n (0-based) falls at startAt + (n + 1) / rate. */
  startAt: number;
  /** Slot length (ms): arrival n is intended for the end of the slot its time falls in. */
  slotMs: number;
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

/** Slack for floating-point division: an arrival exactly on a slot's end belongs to that slot. */
const EPSILON = 1e-9;

export function createArrivals(options: ArrivalOptions): Arrivals {
  const { startAt, slotMs } = options;
  const perMs = options.rate / 1000;
  let issued = 0;
  return {
    tick(now) {
      const slotEnd = Math.floor((now - startAt) / slotMs) * slotMs;
      const due = Math.floor(slotEnd * perMs + EPSILON);
      for (; issued < due; issued++) {
        const intendedAt = startAt + Math.ceil((issued + 1) / perMs / slotMs - EPSILON) * slotMs;
        if (options.inFlight.count >= options.maxInFlight) options.drop(intendedAt);
        else void options.inFlight.track(options.send(intendedAt));
      }
    },
    get issued() {
      return issued;
    },
  };
}
