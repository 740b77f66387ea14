// Spells of refused writes (store/write-outages.ts): told once when they begin and once when they
// end, and a store at the edge of its room, taking small writes between refused big ones, is one
// spell until writes have gone through for the quiet time.
import { describe, expect, it } from 'vitest';
import { createWriteOutages } from '../store/write-outages.js';
import { StoreUnavailable, type WriteOutage } from '../store/types.js';

const full = new StoreUnavailable('the database or its disk is full (SQLITE_FULL)', 'SQLITE_FULL');

function watched(quietMs: number) {
  let clock = 1000;
  const outages = createWriteOutages(quietMs, () => clock);
  const told: WriteOutage[] = [];
  outages.watch((outage) => told.push(outage));
  return { outages, told, advance: (ms: number) => (clock += ms) };
}

describe('spells of refused writes', () => {
  it('are told once when they begin and once when a commit ends them, with the refusals they counted', () => {
    const { outages, told, advance } = watched(5000);
    outages.committed();
    expect(told).toEqual([]);
    for (let i = 0; i < 3; i++) outages.refused(full);
    expect(told).toEqual([{ state: 'began', error: full }]);
    advance(7000);
    outages.committed();
    outages.committed();
    expect(told).toEqual([{ state: 'began', error: full }, { state: 'ended', refused: 3, ms: 7000 }]);
  });

  it('go on through commits that come sooner than the quiet time after a refusal', () => {
    const { outages, told, advance } = watched(5000);
    for (let i = 0; i < 4; i++) {
      outages.refused(full);
      advance(1000);
      outages.committed();
    }
    expect(told).toEqual([{ state: 'began', error: full }]);
    advance(4000);
    outages.committed();
    expect(told).toEqual([{ state: 'began', error: full }, { state: 'ended', refused: 4, ms: 8000 }]);
  });

  it('tell nothing more to a watcher that stopped', () => {
    const { outages, told } = watched(0);
    const stop = outages.watch(() => {
      throw new Error('told after it stopped');
    });
    stop();
    outages.refused(full);
    outages.committed();
    expect(told.map((t) => t.state)).toEqual(['began', 'ended']);
  });
});
