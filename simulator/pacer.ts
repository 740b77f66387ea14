// On-time work for a process of the simulator: every send the simulator plans (an open-model
// arrival, a device's next closed-loop message) is put here with the time it is meant for, and runs
// within about a millisecond of it. One timer serves everything: a binary heap keeps the entries in
// time order, and the timer is armed for the earliest.
//
// Node's timers count whole milliseconds of the loop's clock, read (and truncated) when the loop
// last woke: a timer armed for d ms wakes d ms after the whole millisecond of that reading, plus
// the fraction of a millisecond the clock showed when the loop last went to sleep. Armed from the
// pacer's own wake-up, that fraction is the one it armed at; but when the loop wakes in between
// for something else (an answer arriving), the fraction is that moment's, and the wake-up moves by
// up to a millisecond either way. So whoever handles such a wake-up calls realign(): the pacer
// runs what is due by now and re-aims its timer when its wake-up has moved out of the window
// [-EARLY_MS, +LATE_MS] around the next entry's time. Callers measure from the earlier of the
// intended and the actual send time, so an early send is never counted as a shorter wait.
import { monoNow } from './clock.js';

/** An entry may run this much before its time (ms). */
export const EARLY_MS = 0.75;
/** The timer is aimed to wake at most this much after an entry's time (ms): EARLY_MS + LATE_MS spans Node's 1 ms step. */
const LATE_MS = 0.25;

export interface Pacer {
  /** The clock the pacer reads (clock.ts ms). */
  now(): number;
  /** Run `run(arg, at)` at clock.ts time `at` (at once when that is past); `now`: the clock's reading, when the caller has just taken one. */
  at<T>(at: number, run: (arg: T, at: number) => void, arg: T, now?: number): void;
  /** Entries waiting. */
  readonly size: number;
  /**
   * The loop woke for something other than the pacer (I/O): run what is due, and re-aim the timer
   * if this wake-up moved it out of its window. Cheap when nothing is to be done. `at`: the clock's
   * reading at this wake-up, when the caller has one.
   */
  realign(at?: number): void;
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
  /** Entries that have run, filled again by the next at(): no object made per planned send. */
  const spare: Entry[] = [];
  /** The one timer, kept between arms so that it can be re-armed in place; its duration (ms). */
  let timer: NodeJS.Timeout | undefined;
  let timerDelay = 0;
  let immediate: NodeJS.Immediate | undefined;
  /** The time the timer is armed for (Infinity: not armed), and the loop's whole millisecond it is due at. */
  let armedFor = Infinity;
  let dueMs = 0;

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

  /** Nothing is to wake the loop: a pending timer is cleared (one that has fired is done already). */
  function disarm(): void {
    if (armedFor !== Infinity) {
      clearTimeout(timer);
      timer = undefined; // a cleared timer cannot be restarted
    }
    armedFor = Infinity;
  }

  /** Aim the timer at the earliest entry (the heap is not empty), pending or not. */
  function aim(t: number): void {
    const pending = armedFor !== Infinity;
    const next = heap[0].at;
    armedFor = next;
    // It wakes about `delay` after t (t's fraction of a millisecond kept): aimed at the middle of the window.
    const delay = Math.max(1, Math.round(next - t - (EARLY_MS - LATE_MS) / 2));
    dueMs = Math.floor(t) + delay;
    // Of the timer's own duration: restarted in place, counting from the loop's clock as a new timer
    // would (fired, pending or firing now). A new Timeout for each arrival, and a cleared one's list
    // of timers that Node drops when it empties and builds again, are what this saves.
    if (timer && delay === timerDelay) {
      timer.refresh();
      return;
    }
    // One that has fired (or is firing now) is not cleared: Node is done with it, or will be.
    if (pending) clearTimeout(timer);
    timer = setTimeout(onTimer, delay);
    timerDelay = delay;
  }

  /** An earlier entry than the timer is armed for (or none armed): aim at it. */
  function arm(t: number): void {
    if (heap.length && heap[0].at < armedFor) aim(t);
  }

  function onTimer(): void {
    armedFor = Infinity; // fired: kept, to be re-armed in place
    runDue(now());
  }
  // A timer armed for later stays armed: it runs whatever is due then (or nothing) and re-arms.
  function onImmediate(): void {
    immediate = undefined;
    runDue(now());
  }

  /**
   * Run what is due by `t`, the clock's reading at this wake-up. The clock is read again only after
   * an entry has run (it may have taken a while, and added entries due by then), and that reading
   * aims the timer: most sends go out from realign(), on an answer's wake-up whose reading the wire
   * has taken already, and every clock reading costs ~0.3 µs of a request here.
   */
  function runDue(t: number): void {
    // Entries run may add entries (a loop's next turn), due now or later: run until none is due.
    for (; heap.length && heap[0].at <= t + EARLY_MS; t = now()) {
      const entry = pop();
      const { at, run, arg } = entry;
      entry.arg = undefined;
      spare.push(entry);
      (run as (arg: unknown, at: number) => void)(arg, at);
    }
    // A timer armed for an entry that has run (realign ran it early) would wake the process for nothing:
    // it is aimed at the earliest entry left, or cleared.
    if (!heap.length) disarm();
    else if (heap[0].at !== armedFor) aim(t);
  }

  return {
    now,
    at(at, run, arg, t = now()) {
      const entry = spare.pop();
      if (!entry) push({ at, run: run as Entry['run'], arg });
      else {
        entry.at = at;
        entry.run = run as Entry['run'];
        entry.arg = arg;
        push(entry);
      }
      // Due already: on this turn of the loop once its I/O is done, not inside the caller.
      if (at <= t + EARLY_MS) immediate ??= setImmediate(onImmediate);
      else if (!immediate) arm(t);
    },
    get size() {
      return heap.length;
    },
    realign(at) {
      if (!heap.length || immediate || armedFor === Infinity) return;
      const t = at ?? now();
      // Where the timer wakes now: its whole millisecond plus the fraction the loop sleeps at.
      const wake = dueMs + (t - Math.floor(t));
      if (wake - armedFor <= LATE_MS && armedFor - wake <= EARLY_MS) return;
      // Out of its window: what is due goes now (a new timer could not wake sooner), the rest is re-aimed.
      if (heap[0].at <= t + EARLY_MS) return runDue(t);
      aim(t);
    },
    clear() {
      heap.length = 0;
      spare.length = 0;
      disarm();
      if (immediate) clearImmediate(immediate);
      immediate = undefined;
    },
  };
}
