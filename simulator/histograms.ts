// HDR histograms of latency (hdr-histogram-js, pure-JS build). Values are recorded in
// microseconds; reports speak milliseconds. Workers ship their histograms as compressed base64.
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram, type JsHistogram } from 'hdr-histogram-js';

export type { Histogram };

const HIGHEST_US = 10 * 60 * 1_000_000; // ten minutes: beyond any request a run can hold open

export function createHistogram(): Histogram {
  return build({ bitBucketSize: 32, lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 3, useWebAssembly: false });
}

export function recordMicros(histogram: Histogram, micros: number): void {
  histogram.recordValue(Math.min(HIGHEST_US, Math.max(1, Math.round(micros))));
}

export function encodeHistogram(histogram: Histogram): string {
  return encodeIntoCompressedBase64(histogram);
}

/** Add a histogram, or one encoded by encodeHistogram() in another process. */
export function addEncoded(into: Histogram, from: string | Histogram): void {
  if (typeof from !== 'string') return into.add(from);
  const decoded = decodeFromCompressedBase64(from, 32, false);
  into.add(decoded);
  decoded.destroy();
}

/**
 * Each distinct recorded value (microseconds, the middle of its HDR bucket) with its count, of a
 * histogram or one encoded by encodeHistogram(). Ours are all the pure-JS kind, which iterates.
 */
export function forEachValue(from: string | Histogram, visit: (micros: number, count: number) => void): void {
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

export function latencyStats(histogram: Histogram): LatencyStats {
  const count = histogram.totalCount;
  return {
    count,
    minMs: count ? ms(histogram.minNonZeroValue) : 0,
    meanMs: count ? Math.round(histogram.mean) / 1000 : 0,
    p50: ms(histogram.getValueAtPercentile(50)),
    p90: ms(histogram.getValueAtPercentile(90)),
    p99: ms(histogram.getValueAtPercentile(99)),
    'p99.9': ms(histogram.getValueAtPercentile(99.9)),
    max: ms(histogram.maxValue),
  };
}

/** Percentile curve for charts: [percentile, ms] at logarithmically spaced tail points. */
export function distribution(histogram: Histogram): [number, number][] {
  if (!histogram.totalCount) return [];
  const points: [number, number][] = [];
  for (const p of [0, 10, 25, 50, 75, 90, 95, 97.5, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100]) {
    points.push([p, ms(histogram.getValueAtPercentile(p))]);
  }
  return points;
}
