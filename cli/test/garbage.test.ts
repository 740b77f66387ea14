// collectGarbage runs a full (mark-compact) collection, leaves `gc` unexposed, and leaves
// process.nextTick as fast as it was (garbage.ts).
import { constants, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../garbage.js';

describe('collectGarbage', () => {
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
    collectGarbage();
    end = performance.now();
    const kinds = (await during).map((entry) => (entry as PerformanceEntry & { detail: { kind: number } }).detail.kind);
    expect(kinds).toContain(constants.NODE_PERFORMANCE_GC_MAJOR);
  });

  it('leaves gc out of the contexts made after it, as they were', () => {
    const before = runInNewContext('typeof gc');
    collectGarbage();
    expect(runInNewContext('typeof gc')).toBe(before);
  });

  it('keeps the feedback of the object literal of process.nextTick as it was', async () => {
    const slots = async (collect: 'collectGarbage' | 'gc') => {
      // Ticks enough for nextTick to get its feedback, a full collection with none queued, ticks again.
      const script = `
        const { collectGarbage } = await import(${JSON.stringify(new URL('../garbage.ts', import.meta.url).href)});
        const quiet = () => new Promise((resolve) => setTimeout(resolve, 5));
        const ticks = async () => { for (let i = 0; i < 500; i++) process.nextTick(() => {}); await quiet(); };
        await ticks();
        ${collect}();
        await quiet();
        await ticks();
        new Function('f', '%DebugPrint(f)')(process.nextTick);`;
      // V8 prints to the C library's stdout: a file takes it whole, where a pipe may lose its tail at exit.
      const dir = mkdtempSync(join(tmpdir(), 'dhi-garbage-'));
      const out = openSync(join(dir, 'out'), 'w');
      try {
        const args = ['--expose-gc', '--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script];
        const child = spawn(process.execPath, args, { stdio: ['ignore', out, 'inherit'] });
        const code = await new Promise((resolve) => child.on('close', resolve));
        expect(code).toBe(0);
        const stdout = readFileSync(join(dir, 'out'), 'utf8');
        return stdout.match(/DefineKeyedOwnPropertyInLiteral \w+/g) ?? [];
      } finally {
        closeSync(out);
        rmSync(dir, { recursive: true, force: true });
      }
    };
    // The hazard itself, on this Node: a plain full collection leaves the literal megamorphic.
    expect(await slots('gc'), 'this Node keeps nextTick\'s feedback through a full collection: the queued tick of cli/garbage.ts can go').toContain('DefineKeyedOwnPropertyInLiteral MEGAMORPHIC');
    const kept = await slots('collectGarbage');
    expect(kept.length, 'V8 printed no feedback for the literal of process.nextTick').toBeGreaterThan(0);
    expect(kept.every((slot) => slot === 'DefineKeyedOwnPropertyInLiteral MONOMORPHIC'), kept.join(', ')).toBe(true);
  });
});
