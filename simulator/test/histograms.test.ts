// Recording and adding histograms: each fast path (a value's bucket from its leading zeros; only
// the counts between a histogram's min and max) gives the same histogram as hdr-histogram-js's
// recordValue() and add(), from a histogram or from its encoding.
import { describe, expect, it } from 'vitest';
import { addEncoded, createHistogram, encodeHistogram, latencyStats, recordMicros, type Histogram } from '../histograms.js';
import { decodeFromCompressedBase64, type JsHistogram } from 'hdr-histogram-js';
import { createRandom } from '../profiles.js';

function filled(seed: number, n: number, scaleMicros: number): Histogram {
  const random = createRandom(seed);
  const h = createHistogram();
  for (let i = 0; i < n; i++) recordMicros(h, 1 + random() ** 3 * scaleMicros);
  return h;
}

const shape = (h: Histogram) => ({
  count: h.totalCount,
  min: h.minNonZeroValue,
  max: h.maxValue,
  mean: h.mean,
  percentiles: [0, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100].map((p) => h.getValueAtPercentile(p)),
});

describe('histograms', () => {
  it('adds a histogram, or its encoding, as hdr-histogram-js does, min and max exact', () => {
    const a = filled(1, 5000, 30_000);
    const b = filled(2, 700, 12_000_000);
    // An encoding keeps every count but not the exact max (it decodes to its bucket's highest value).
    const decodedB = decodeFromCompressedBase64(encodeHistogram(b), 32, false);
    const expected = createHistogram();
    expected.add(a);
    expected.add(decodedB);
    const fast = createHistogram();
    addEncoded(fast, a);
    addEncoded(fast, encodeHistogram(b));
    expect(shape(fast)).toEqual(shape(expected));
    expect(latencyStats(fast)).toEqual(latencyStats(expected));
    const direct = createHistogram();
    addEncoded(direct, b);
    expect(direct.maxValue).toBe(b.maxValue); // in-process, the max stays exact
  });

  it("records each value in the count, total, min and max that hdr-histogram-js's recordValue() gives", () => {
    // Every bucket's edges (powers of two, either side), the first bucket's whole range, the clamps
    // at both ends, fractions to round, and a spread of random values over the whole range.
    const values = [0, 0.4, 0.5, 1, 1.49, 2, 3, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 600_000_000, 600_000_001, 2 ** 32, 1e12];
    for (let k = 1; k < 30; k++) values.push(2 ** k - 1, 2 ** k, 2 ** k + 1, 2 ** k * 1.5);
    const random = createRandom(7);
    for (let i = 0; i < 20_000; i++) values.push(random() ** 4 * 600_000_000);
    const ours = createHistogram();
    const theirs = createHistogram();
    for (const v of values) {
      recordMicros(ours, v);
      theirs.recordValue(Math.min(600_000_000, Math.max(1, Math.round(v))));
    }
    const a = ours as JsHistogram;
    const b = theirs as JsHistogram;
    expect(a.countsArrayLength).toBe(b.countsArrayLength);
    const differing = [];
    for (let i = 0; i < a.countsArrayLength; i++) if (a.getCountAtIndex(i) !== b.getCountAtIndex(i)) differing.push(i);
    expect(differing).toEqual([]);
    expect({ total: a.totalCount, min: a.minNonZeroValue, max: a.maxValue }).toEqual({ total: values.length, min: 1, max: 600_000_000 });
    expect(shape(ours)).toEqual(shape(theirs));
    expect(encodeHistogram(ours)).toBe(encodeHistogram(theirs));
  });

  it('encodes an empty histogram as nothing, and adding nothing changes nothing', () => {
    const empty = createHistogram();
    expect(encodeHistogram(empty)).toBe('');
    const h = filled(3, 10, 1000);
    const before = shape(h);
    addEncoded(h, '');
    addEncoded(h, empty);
    expect(shape(h)).toEqual(before);
  });
});
