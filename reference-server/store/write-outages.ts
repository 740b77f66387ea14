// Spells of writes the store refused because it could not take them (StoreUnavailable): the server
// logs one line when a spell begins and one when it ends, not one per request. A store at the edge of
// its room takes small writes and refuses big ones in turn, so a spell ends only once writes have
// gone through with no refusal for `quietMs`: told at the first commit after that.
import type { StoreUnavailable, WriteOutage } from './types.js';

/** How long writes must go through without a refusal before a spell counts as over. */
export const OUTAGE_QUIET_MS = 5000;

export interface WriteOutages {
  /** A write was refused with StoreUnavailable: a spell begins, or counts one more refusal. */
  refused(error: StoreUnavailable): void;
  /** A batch committed: the spell, if any, ends when the last refusal is quietMs old. */
  committed(): void;
  watch(listener: (outage: WriteOutage) => void): () => void;
}

export function createWriteOutages(quietMs = OUTAGE_QUIET_MS, now: () => number = Date.now): WriteOutages {
  const listeners = new Set<(outage: WriteOutage) => void>();
  let since: number | undefined;
  let lastRefusal = 0;
  let refused = 0;
  const tell = (outage: WriteOutage) => {
    for (const listener of listeners) listener(outage);
  };
  return {
    refused(error) {
      refused++;
      lastRefusal = now();
      if (since !== undefined) return;
      since = lastRefusal;
      tell({ state: 'began', error });
    },
    committed() {
      if (since === undefined) return;
      const at = now();
      if (at - lastRefusal < quietMs) return;
      const outage: WriteOutage = { state: 'ended', refused, ms: at - since };
      since = undefined;
      refused = 0;
      tell(outage);
    },
    watch(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
