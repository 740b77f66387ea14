// HDR histograms of latency (hdr-histogram-js, pure-JS build). Values are recorded in
// microseconds; reports speak milliseconds. Workers ship their histograms as compressed base64.
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram, type JsHistogram } from 'hdr-histogram-js';

export type { Histogram };

const HIGHEST_US = 10 * 60 * 1_000_000; // ten minutes: beyond any request a run can hold open

export function createHistogram(): Histogram {
  return build({ bitBucketSize: 32, lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 3, useWebAssembly: false });
}

// Every histogram here has the same layout: buckets of SUB_HALF * 2 counts, the first covering
// 0..2*SUB_HALF-1 in steps of 1, each next one twice the span in steps twice as wide.
const LAYOUT = createHistogram() as JsHistogram;
const SUB_HALF_MAGNITUDE = LAYOUT.subBucketHalfCountMagnitude;
const SUB_HALF = LAYOUT.subBucketHalfCount;
const SUB_MAGNITUDE = SUB_HALF_MAGNITUDE + 1;
LAYOUT.destroy();

/** The counts index of a whole µs value from 1 to HIGHEST_US (below 2^32), as countsArrayIndex() gives it, from the value's leading zeros. */
function indexOf(value: number): number {
  const bucket = Math.max(0, 32 - Math.clz32(value) - SUB_MAGNITUDE);
  return ((bucket + 1) << SUB_HALF_MAGNITUDE) + (value >>> bucket) - SUB_HALF;
}

/**
 * Record a value, as recordValue() would (the same count, total, min and max), with the bucket
 * found from the value's leading zeros: hdr-histogram-js's pure-JS build takes a Math.log2 and two
 * Math.pow per value, a fair share of a request's cost to the simulator. Values are whole µs from
 * 1 to HIGHEST_US (below 2^32), and the lowest discernible value is 1 (no unit shift).
 */
export function recordMicros(histogram: Histogram, micros: number): void {
  const value = Math.min(HIGHEST_US, Math.max(1, Math.round(micros)));
  const h = histogram as JsHistogram;
  h.incrementCountAtIndex(indexOf(value));
  if (value > h.maxValue) h.maxValue = value;
  if (value < h.minNonZeroValue) h.minNonZeroValue = value;
  h.incrementTotalCount();
}

/** Compressed base64, or '' for an empty histogram. */
export function encodeHistogram(histogram: Histogram): string {
  return histogram.totalCount ? encodeIntoCompressedBase64(histogram) : '';
}

/**
 * Add `from` into `into` (both made by createHistogram, or decoded from one: the same counts
 * layout), count by count at the same index: only the counts between its smallest and largest
 * values are visited, where hdr-histogram-js's add() visits all ~21,500 of them, and none is
 * recorded again by value (a Math.log2 and two Math.pow each). The exact min and max are kept.
 * A second's delta holds a few hundred values in a narrow range.
 */
function addRange(into: Histogram, from: Histogram): void {
  if (!from.totalCount) return;
  const source = from as JsHistogram;
  const target = into as JsHistogram;
  const last = indexOf(from.maxValue);
  for (let i = indexOf(from.minNonZeroValue); i <= last; i++) {
    const n = source.getCountAtIndex(i);
    if (n) target.addToCountAtIndex(i, n);
  }
  target.addToTotalCount(from.totalCount);
  if (from.maxValue > target.maxValue) target.maxValue = from.maxValue;
  if (from.minNonZeroValue < target.minNonZeroValue) target.minNonZeroValue = from.minNonZeroValue;
}

/** Add a histogram, or one encoded by encodeHistogram() in another process ('' for an empty one). An empty one costs nothing. */
export function addEncoded(into: Histogram, from: string | Histogram): void {
  if (typeof from !== 'string') return addRange(into, from);
  if (from === '') return;
  const decoded = decodeFromCompressedBase64(from, 32, false);
  addRange(into, decoded);
  decoded.destroy();
}

/**
 * Each distinct recorded value (microseconds, the middle of its HDR bucket) with its count, of a
 * histogram or one encoded by encodeHistogram(). Ours are all the pure-JS kind, which iterates.
 */
export function forEachValue(from: string | Histogram, visit: (micros: number, count: number) => void): void {
  if (from === '') return;
  const histogram = (typeof from === 'string' ? decodeFromCompressedBase64(from, 32, false) : from) as JsHistogram;
  const values = histogram.recordedValuesIterator;
  values.reset();
  while (values.hasNext()) {
    const step = values.next();
    visit(histogram.medianEquivalentValue(step.valueIteratedTo), step.countAtValueIteratedTo);
  }
  if (typeof from === 'string') histogram.destroy();
}

export interface LatencyStats {
  count: number;
  minMs: number;
  meanMs: number;
  p50: number;
  p90: number;
  p99: number;
  'p99.9': number;
  max: number;
}

const ms = (micros: number): number => Math.round(micros) / 1000;

/**
 * A percentile in µs. HDR histograms answer with the highest value of the percentile's bucket,
 * which can lie above the largest value recorded: a percentile never says more than the max.
 */
export function percentile(histogram: Histogram, p: number): number {
  return Math.min(histogram.getValueAtPercentile(p), histogram.maxValue);
}

export function latencyStats(histogram: Histogram): LatencyStats {
  const count = histogram.totalCount;
  return {
    count,
    minMs: count ? ms(histogram.minNonZeroValue) : 0,
    meanMs: count ? Math.round(histogram.mean) / 1000 : 0,
    p50: ms(percentile(histogram, 50)),
    p90: ms(percentile(histogram, 90)),
    p99: ms(percentile(histogram, 99)),
    'p99.9': ms(percentile(histogram, 99.9)),
    max: ms(histogram.maxValue),
  };
}

/** Percentile curve for charts: [percentile, ms] at logarithmically spaced tail points. */
export function distribution(histogram: Histogram): [number, number][] {
  if (!histogram.totalCount) return [];
  const points: [number, number][] = [];
  for (const p of [0, 10, 25, 50, 75, 90, 95, 97.5, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100]) {
    points.push([p, ms(percentile(histogram, p))]);
  }
  return points;
}
