// Counting requests in flight, so that a stop can wait for the last answer before closing pools.

export interface InFlight {
  /** Count `work` until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T>;
  readonly count: number;
  /** Resolves when nothing is in flight (at once if nothing is). */
  idle(): Promise<void>;
}

export function createInFlight(): InFlight {
  let count = 0;
  let waiters: (() => void)[] = [];
  const settle = () => {
    count--;
    if (count === 0) {
      for (const wake of waiters) wake();
      waiters = [];
    }
  };
  return {
    track(work) {
      count++;
      work.then(settle, settle);
      return work;
    },
    get count() {
      return count;
    },
    idle() {
      return count === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
  };
}
