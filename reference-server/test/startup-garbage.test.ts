// collectStartupGarbage runs a full (mark-compact) collection, and leaves `gc` unexposed.
import { constants, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectStartupGarbage } from '../startup-garbage.js';

describe('collectStartupGarbage', () => {
  it('runs a full garbage collection while it runs', async () => {
    let start = Infinity;
    let end = Infinity;
    // GC entries are delivered after the task that saw them: the first batch with one from the call.
    const during = new Promise<PerformanceEntry[]>((resolve) => {
      const observer = new PerformanceObserver((list) => {
        const entries = list.getEntries().filter((entry) => entry.startTime >= start && entry.startTime <= end);
        if (entries.length === 0) return;
        observer.disconnect();
        resolve(entries);
      });
      observer.observe({ entryTypes: ['gc'] });
    });
    start = performance.now();
    collectStartupGarbage();
    end = performance.now();
    const kinds = (await during).map((entry) => (entry as PerformanceEntry & { detail: { kind: number } }).detail.kind);
    expect(kinds).toContain(constants.NODE_PERFORMANCE_GC_MAJOR);
  });

  it('leaves gc out of the contexts made after it, as they were', () => {
    const before = runInNewContext('typeof gc');
    collectStartupGarbage();
    expect(runInNewContext('typeof gc')).toBe(before);
  });
});
