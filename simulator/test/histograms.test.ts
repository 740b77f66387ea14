// Adding histograms: the fast path (only the counts between a histogram's min and max) gives the
// same histogram as hdr-histogram-js's add(), from a histogram or from its encoding.
import { describe, expect, it } from 'vitest';
import { addEncoded, createHistogram, encodeHistogram, latencyStats, recordMicros, type Histogram } from '../histograms.js';
import { decodeFromCompressedBase64 } from 'hdr-histogram-js';
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
