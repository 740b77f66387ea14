import { describe, expect, it } from 'vitest';
import { latencyStats } from '../histograms.js';
import { createAggregate, createRecorder } from '../metrics.js';

describe('metrics', () => {
  it('drains deltas that an aggregate folds into totals, timelines and intervals', () => {
    const recorder = createRecorder();
    const aggregate = createAggregate();
    for (let i = 1; i <= 100; i++) recorder.ok('telemetry', i * 1000); // 1..100 ms
    recorder.fail('telemetry', 'status 503');
    recorder.fail('telemetry', 'reset');
    recorder.count('telemetryPoints', 300);
    aggregate.absorb(recorder.drain(), 0);
    recorder.ok('telemetry', 5000);
    aggregate.absorb(recorder.drain(), 2);

    const totals = aggregate.paths.get('telemetry')!;
    expect(totals.ok).toBe(101);
    expect(totals.errors).toEqual({ 'status 503': 1, reset: 1 });
    expect(totals.okPerSecond).toEqual([100, 0, 1]);
    expect(totals.errorsPerSecond).toEqual([2, 0, 0]);
    expect(aggregate.counters.telemetryPoints).toBe(300);
    const stats = latencyStats(totals.histogram);
    expect(stats.count).toBe(101);
    expect(stats.p50).toBeCloseTo(50, 0);
    expect(stats.max).toBeCloseTo(100, 0);
    expect(aggregate.interval(2).telemetry).toMatchObject({ ok: 101, errors: 2 });
    expect(totals.p99PerSecond).toEqual([0, 0, expect.closeTo(99, 0)]);
    expect(aggregate.interval(3).telemetry).toMatchObject({ ok: 0, errors: 0 });
    expect(totals.p99PerSecond).toHaveLength(4);
  });

  it('sends nothing for a path without news', () => {
    const recorder = createRecorder();
    recorder.ok('rpc', 10);
    recorder.drain();
    expect(recorder.drain()).toEqual({ paths: {}, counters: {} });
  });
});
