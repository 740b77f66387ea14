// On-time work for a process of the simulator: every send the simulator plans (an open-model
// arrival, a device's next closed-loop message) is put here with the time it is meant for, and runs
// within about a millisecond of it. One timer serves everything: a binary heap keeps the entries in
// time order, and the timer is armed for the earliest. Node's timers count whole milliseconds from
// a clock read at the start of each loop turn, so a timer fires up to a millisecond early or late;
// the pacer runs an entry when it is due within EARLY_MS, and callers measure from the earlier of
// the intended and the actual send time, so an early send is never counted as a shorter wait.
import { monoNow } from './clock.js';

/** An entry may run this much before its time (ms): half of Node's timer granularity. */
export const EARLY_MS = 0.5;

export interface Pacer {
  /** The clock the pacer reads (clock.ts ms). */
  now(): number;
  /** Run `run(arg, at)` at clock.ts time `at` (at once when that is past). */
  at<T>(at: number, run: (arg: T, at: number) => void, arg: T): void;
  /** Entries waiting. */
  readonly size: number;
  /** Forget every entry; the pacer takes new ones afterwards. */
  clear(): void;
}

interface Entry {
  at: number;
  run: (arg: never, at: number) => void;
  arg: unknown;
}

export function createPacer(now: () => number = monoNow): Pacer {
  const heap: Entry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  /** The time the timer is armed for (Infinity: not armed). */
  let armedFor = Infinity;

  const less = (a: Entry, b: Entry) => a.at < b.at;
  function push(entry: Entry): void {
    let i = heap.push(entry) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }
  function pop(): Entry {
    const top = heap[0];
    const last = heap.pop() as Entry;
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l], heap[m])) m = l;
        if (r < heap.length && less(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    }
    return top;
  }

  function arm(t: number): void {
    if (!heap.length) return;
    const next = heap[0].at;
    if (next >= armedFor) return;
    if (timer) clearTimeout(timer);
    armedFor = next;
    timer = setTimeout(onTimer, Math.max(1, Math.round(next - t)));
  }

  // The timer that fires is done: clearing it would make Node drop and rebuild its list of timers
  // of that duration (an object in dictionary mode and a priority queue) on every arrival.
  function onTimer(): void {
    timer = undefined;
    armedFor = Infinity;
    runDue();
  }
  // A timer armed for later stays armed: it runs whatever is due then (or nothing) and re-arms.
  function onImmediate(): void {
    immediate = undefined;
    runDue();
  }

  function runDue(): void {
    // Entries run may add entries (a loop's next turn), due now or later: run until none is due.
    for (let t = now(); heap.length && heap[0].at <= t + EARLY_MS; t = now()) {
      const entry = pop();
      (entry.run as (arg: unknown, at: number) => void)(entry.arg, entry.at);
    }
    arm(now());
  }

  return {
    now,
    at(at, run, arg) {
      push({ at, run: run as Entry['run'], arg });
      const t = now();
      // Due already: on this turn of the loop once its I/O is done, not inside the caller.
      if (at <= t + EARLY_MS) immediate ??= setImmediate(onImmediate);
      else if (!immediate) arm(t);
    },
    get size() {
      return heap.length;
    },
    clear() {
      heap.length = 0;
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      timer = immediate = undefined;
      armedFor = Infinity;
    },
  };
}
