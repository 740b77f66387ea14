import { describe, expect, it } from 'vitest';
import { monoNow } from '../clock.js';
import { latencyStats } from '../histograms.js';
import { createAggregate } from '../aggregate.js';
import { createRecorder } from '../metrics.js';
import { sendSummary } from '../report/summary.js';

describe('metrics', () => {
  it('drains deltas that an aggregate folds into totals, timelines and intervals', () => {
    const recorder = createRecorder();
    const aggregate = createAggregate();
    const now = monoNow();
    for (let i = 1; i <= 100; i++) recorder.record('telemetry', 'ok', now - i * 1000, 'sent'); // about 1..100 s ago
    recorder.record('telemetry', 'status 503', now, 'sent');
    recorder.record('telemetry', 'dropped', now, 'untimed');
    recorder.count('telemetryPoints', 300);
    aggregate.absorb(recorder.drain(), 0);
    recorder.record('telemetry', 'ok', now, 'intended');
    aggregate.absorb(recorder.drain(), 2);

    const totals = aggregate.phases.warmup.get('telemetry')!;
    expect(totals.ok).toBe(101);
    expect(totals.errors).toEqual({ 'status 503': 1, dropped: 1 });
    expect(totals).toMatchObject({ intended: 1, sent: 101 });
    const timeline = aggregate.timelines.get('telemetry')!;
    expect(timeline.okPerSecond).toEqual([100, 0, 1]);
    expect(timeline.errorsPerSecond).toEqual([2, 0, 0]);
    expect(aggregate.counters.telemetryPoints).toBe(300);
    // Every timed outcome is in the histogram, the 503 too; the dropped arrival was never sent.
    const stats = latencyStats(totals.histogram);
    expect(stats.count).toBe(102);
    expect(stats.max).toBeGreaterThanOrEqual(100_000);
    expect(aggregate.interval(2).telemetry).toMatchObject({ ok: 101, errors: 2 });
    expect(timeline.p99PerSecond).toHaveLength(3);
    expect(aggregate.interval(3).telemetry).toMatchObject({ ok: 0, errors: 0 });
    expect(timeline.p99PerSecond).toHaveLength(4);
  });

  it('times a request to the end its caller read, or else to the moment it is recorded', () => {
    const recorder = createRecorder();
    const aggregate = createAggregate();
    const startedAt = monoNow() - 60_000;
    recorder.record('telemetry', 'ok', startedAt, 'intended', 0, 0, startedAt + 5);
    aggregate.absorb(recorder.drain(), 0);
    expect(latencyStats(aggregate.phases.warmup.get('telemetry')!.histogram)).toMatchObject({ count: 1, max: 5 });
    recorder.record('telemetry', 'ok', startedAt, 'intended', 0, 0);
    aggregate.absorb(recorder.drain(), 1);
    expect(latencyStats(aggregate.phases.warmup.get('telemetry')!.histogram).max).toBeGreaterThanOrEqual(60_000);
  });

  it('puts a request in the phase its start belongs to, not its end', () => {
    const recorder = createRecorder();
    const aggregate = createAggregate();
    const boundary = monoNow();
    recorder.steadyFrom(boundary);
    recorder.record('rpc', 'ok', boundary - 1, 'intended'); // started before, answered after
    recorder.record('rpc', 'timeout', boundary, 'intended');
    recorder.record('rpc', 'ok', boundary + 0.5, 'intended');
    aggregate.absorb(recorder.drain(), 0);
    expect(aggregate.phases.warmup.get('rpc')).toMatchObject({ ok: 1, errors: {} });
    expect(aggregate.phases.steady.get('rpc')).toMatchObject({ ok: 1, errors: { timeout: 1 }, intended: 2 });
  });

  it('counts a success in its rate only when it completed inside the steady window, whatever phase its start filed it in', () => {
    const recorder = createRecorder();
    const aggregate = createAggregate();
    const now = monoNow();
    recorder.steadyFrom(now - 1000);
    recorder.record('telemetry', 'ok', now - 2000, 'intended'); // started in the warm-up, completed inside the window
    recorder.record('telemetry', 'ok', now - 500, 'intended');
    recorder.windowEnd(now - 1); // the load stopped: later completions count in no rate
    recorder.record('telemetry', 'ok', now - 100, 'intended');
    recorder.record('telemetry', 'timeout', now - 100, 'intended');
    aggregate.absorb(recorder.drain(), 0);
    expect(aggregate.phases.warmup.get('telemetry')).toMatchObject({ ok: 1, okInWindow: 1 });
    expect(aggregate.phases.steady.get('telemetry')).toMatchObject({ ok: 2, okInWindow: 1, errors: { timeout: 1 } });
  });

  it("keeps the simulator's own wait apart: the send lag of every request, and the backlog of those that waited", () => {
    const recorder = createRecorder();
    const aggregate = createAggregate();
    const now = monoNow();
    recorder.record('telemetry', 'ok', now, 'untimed', 0.2, 0);
    recorder.record('telemetry', 'ok', now, 'untimed', 7, 6.5);
    recorder.record('telemetry', 'ok', now, 'untimed', 3, 2.5);
    recorder.record('attributePush', 'ok', now - 5, 'sent'); // a poll's answer: not sent by the simulator, no lag
    aggregate.absorb(recorder.drain(), 0);
    const totals = aggregate.phases.warmup.get('telemetry')!;
    expect(totals).toMatchObject({ queued: 2, queuedMs: 9, queuedMaxMs: 6.5, ok: 3 });
    expect(totals.lag.totalCount).toBe(3);
    expect(totals.histogram.totalCount).toBe(0); // the target's time is kept apart
    expect(aggregate.phases.warmup.get('attributePush')!.lag.totalCount).toBe(0);
  });

  it('never reports a percentile above the max (a histogram bucket can reach past it)', () => {
    const recorder = createRecorder();
    const aggregate = createAggregate();
    const now = monoNow();
    for (let i = 0; i < 3; i++) recorder.record('rpc', 'ok', now - 20, 'intended');
    recorder.record('rpc', 'ok', now - 1234.567, 'intended');
    aggregate.absorb(recorder.drain(), 0);
    const stats = latencyStats(aggregate.phases.warmup.get('rpc')!.histogram);
    expect(stats.max).toBeGreaterThanOrEqual(1234.567);
    for (const p of [stats.p50, stats.p90, stats.p99, stats['p99.9']]) expect(p).toBeLessThanOrEqual(stats.max);
  });

  it('says when the generator, not the target, limited a path: a backlog, a drop, or sends late beyond 1 ms and 5 % of the p99', () => {
    const totals = (lags: number[], queued = 0, dropped = 0) => {
      const recorder = createRecorder();
      const aggregate = createAggregate();
      const now = monoNow();
      for (const lag of lags) recorder.record('telemetry', 'ok', now, 'untimed', lag, 0);
      for (let i = 0; i < queued; i++) recorder.record('telemetry', 'ok', now, 'untimed', 0.3, 0.2);
      for (let i = 0; i < dropped; i++) recorder.record('telemetry', 'dropped', now, 'untimed');
      aggregate.absorb(recorder.drain(), 0);
      return aggregate.phases.warmup.get('telemetry')!;
    };
    const onTime = Array.from({ length: 100 }, () => 0.3);
    const late = Array.from({ length: 100 }, () => 2);
    expect(sendSummary(totals(onTime), 20)).toMatchObject({ generatorLimited: false, queued: { count: 0 } });
    expect(sendSummary(totals(late), 20)).toMatchObject({ generatorLimited: true, reason: 'requests left up to 2 ms late (p99)' });
    expect(sendSummary(totals(late), 1000)?.generatorLimited).toBe(false); // 2 ms is 0.2 % of a 1 s p99
    expect(sendSummary(totals(onTime, 3), 20)).toMatchObject({ generatorLimited: true, reason: '3 request(s) waited for a connection (up to 0.2 ms)' });
    expect(sendSummary(totals([], 0, 4), 20)).toMatchObject({ generatorLimited: true, reason: '4 request(s) never left (dropped)' });
  });

  it('reports devices online once, with their fleet index', () => {
    const recorder = createRecorder();
    recorder.online(7);
    recorder.online(3);
    expect(recorder.drain()).toMatchObject({ online: [7, 3], counters: { devicesOnline: 2 } });
    expect(recorder.drain()).toEqual({ warmup: {}, steady: {}, counters: {}, online: [] });
  });
});
