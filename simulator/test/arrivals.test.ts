// On-time sending: the pacer runs each entry in time order and never before its time (less
// EARLY_MS), and the open-model arrivals are each meant for their own time, a late turn sending
// the overdue ones with their own times. Against the reference server: what was sent is what it stored.
import { createHook } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, startTestServer, stopTestServer, storedRows, type TestServer } from '../../reference-server/test/helpers.js';
import { startArrivals } from '../arrivals.js';
import { monoNow } from '../clock.js';
import { createDevice as createVirtualDevice, sendTelemetry, type DeviceContext } from '../device.js';
import { createAggregate } from '../aggregate.js';
import { createRecorder } from '../metrics.js';
import { createPacer, EARLY_MS, type Pacer } from '../pacer.js';
import { loadTemplates } from '../routes.js';
import { scenarioFromJson } from '../scenario.js';
import { createWire } from '../wire.js';

/** A pacer whose clock the test sets and whose entries run when the test says. */
function manualPacer(): Pacer & { runDue(): void; setNow(t: number): void } {
  let now = 0;
  let entries: { at: number; run: (arg: never, at: number) => void; arg: unknown }[] = [];
  return {
    now: () => now,
    at(at, run, arg) {
      entries.push({ at, run: run as never, arg });
    },
    get size() {
      return entries.length;
    },
    clear() {
      entries = [];
    },
    setNow(t) {
      now = t;
    },
    realign() {
      this.runDue();
    },
    runDue() {
      for (let due = entries.filter((e) => e.at <= now + EARLY_MS); due.length; due = entries.filter((e) => e.at <= now + EARLY_MS)) {
        entries = entries.filter((e) => !due.includes(e));
        for (const e of due.sort((a, b) => a.at - b.at)) (e.run as (arg: unknown, at: number) => void)(e.arg, e.at);
      }
    },
  };
}

describe('on-time sending', () => {
  it('runs pacer entries in time order, never before their time less EARLY_MS, and an entry due now on a later turn', async () => {
    const pacer = createPacer();
    const start = monoNow();
    const ran: { label: number; at: number; ranAt: number }[] = [];
    const record = (label: number, at: number) => ran.push({ label, at, ranAt: monoNow() });
    for (const offset of [30, 5, 20, 5.2, 12]) pacer.at(start + offset, record, offset);
    pacer.at(start - 50, record, -50); // overdue: next turn, not inside at()
    expect(ran).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(ran.map((r) => r.label)).toEqual([-50, 5, 5.2, 12, 20, 30]);
    for (const r of ran) expect(r.ranAt).toBeGreaterThanOrEqual(r.at - EARLY_MS);
    expect(pacer.size).toBe(0);
  });

  it('when the loop wakes for something else (realign), sends what is due if its timer would now wake too late, and nothing early', () => {
    let clock = 1000;
    const pacer = createPacer(() => clock);
    const ran: string[] = [];
    const run = (label: string) => ran.push(label);
    pacer.at(1010, run, 'a'); // the timer: 10 ms, due at the loop's millisecond 1010 plus the fraction it sleeps at
    pacer.at(1020, run, 'b');
    clock = 1009.2; // it would wake at 1010.2: within +0.25 ms of 'a', left alone
    pacer.realign();
    expect(ran).toEqual([]);
    clock = 1009.5; // now at 1010.5, too late: 'a' is due within EARLY_MS and goes now
    expect(1010 - clock).toBeLessThanOrEqual(EARLY_MS);
    pacer.realign();
    expect(ran).toEqual(['a']);
    expect(pacer.size).toBe(1);
    clock = 1030;
    pacer.realign();
    expect(ran).toEqual(['a', 'b']);
    pacer.clear();
  });

  it('re-arms its one timer in place: a run of entries a millisecond apart, each planning the next, makes few timers and runs each on time', async () => {
    let timeouts = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'Timeout' && timeouts++) }).enable();
    try {
      const pacer = createPacer();
      const ran: { at: number; ranAt: number }[] = [];
      const start = monoNow() + 5;
      await new Promise<void>((resolve) => {
        // As the open-model arrivals do: each entry plans the next one.
        const step = (n: number, at: number) => {
          ran.push({ at, ranAt: monoNow() });
          if (n < 60) pacer.at(start + n + 1, step, n + 1);
          else resolve();
        };
        pacer.at(start, step, 0);
      });
      expect(ran).toHaveLength(61);
      for (const [i, r] of ran.entries()) {
        expect(r.at).toBe(start + i);
        expect(r.ranAt).toBeGreaterThanOrEqual(r.at - EARLY_MS);
      }
      // A new Timeout for every entry would be 61; in place, one a duration (and one again after a late turn).
      expect(timeouts).toBeLessThan(15);
    } finally {
      hook.disable();
    }
  });

  it('forgets its entries when cleared', async () => {
    const pacer = createPacer();
    const ran: number[] = [];
    pacer.at(monoNow() + 5, (n: number) => ran.push(n), 1);
    pacer.clear();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toEqual([]);
  });

  it('means arrival n for startAt + (n + 1) / rate, and sends the overdue ones of a late turn each with its own time', () => {
    const pacer = manualPacer();
    const sent: number[] = [];
    // 4 per second from t = 1000: arrivals at 1250, 1500, 1750, 2000 ...
    const arrivals = startArrivals(pacer, { rate: 4, startAt: 1000, send: (at) => sent.push(at) });
    pacer.setNow(1249);
    pacer.runDue();
    expect(sent).toEqual([]);
    pacer.setNow(1250);
    pacer.runDue();
    expect(sent).toEqual([1250]);
    // A turn 600 ms late: the two overdue arrivals go now, each stamped with its own intended time.
    pacer.setNow(1850);
    pacer.runDue();
    expect(sent).toEqual([1250, 1500, 1750]);
    expect(arrivals.issued).toBe(3);
    arrivals.stop();
    pacer.setNow(5000);
    pacer.runDue();
    expect(arrivals.issued).toBe(3);
  });

  it('stops within a late turn when a send says so: no arrival after it, none planned', () => {
    const pacer = manualPacer();
    const sent: number[] = [];
    // 4 per second from t = 1000; the second send stops the arrivals, in a turn that has three due.
    const arrivals = startArrivals(pacer, { rate: 4, startAt: 1000, send: (at) => sent.push(at) === 2 && arrivals.stop() });
    pacer.setNow(1800);
    pacer.runDue();
    expect(sent).toEqual([1250, 1500]);
    expect(arrivals.issued).toBe(2);
    expect(pacer.size).toBe(0);
  });

  it('spaces a rate that does not divide a millisecond exactly, without drift', () => {
    const pacer = manualPacer();
    const sent: number[] = [];
    startArrivals(pacer, { rate: 3, startAt: 0, send: (at) => sent.push(at) });
    pacer.setNow(10_000);
    pacer.runDue();
    expect(sent).toHaveLength(30);
    expect(sent[0]).toBeCloseTo(333.333, 3);
    expect(sent[29]).toBeCloseTo(10_000, 6);
  });
});

describe('open-model telemetry against the reference server', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await stopTestServer(server);
  });

  it('times overdue arrivals from their intended times, and what was sent is what the server stored', async () => {
    const record = await createDevice(server.ctx);
    const scenario = scenarioFromJson({ name: 'open', extends: 'telemetry', telemetry: { rate: 100 } });
    const wire = createWire({ url: server.httpUrl, insecure: false, maxConnectionsPerLink: 4, maxConnections: 100 });
    const recorder = createRecorder();
    let settled: () => void = () => {};
    const ctx: DeviceContext = {
      scenario, recorder, pacer: createPacer(), host: new URL(server.httpUrl).host, requestTimeoutMs: 10_000, inFlight: 0, issuing: true, ending: false,
      settled: () => ctx.inFlight === 0 && settled(),
    };
    const device = createVirtualDevice(0, record.token, (await loadTemplates()).device, '', wire.link(), ctx, 1);
    // The schedule began a second ago and nothing ran since: 100 arrivals are overdue.
    const pacer = manualPacer();
    pacer.setNow(monoNow());
    const arrivals = startArrivals(pacer, { rate: 100, startAt: pacer.now() - 1000, send: (at) => sendTelemetry(device, at) });
    pacer.runDue();
    expect(arrivals.issued).toBe(100);
    await new Promise<void>((resolve) => (settled = resolve));
    wire.destroy('unfinished');

    const aggregate = createAggregate();
    aggregate.absorb(recorder.drain(), 0);
    const telemetry = aggregate.phases.warmup.get('telemetry')!;
    expect(telemetry.ok).toBe(100);
    expect(telemetry).toMatchObject({ intended: 100, sent: 0, errors: {} });
    // The first was meant for 990 ms before the turn that sent it: its latency shows the wait.
    expect(telemetry.histogram.maxValue).toBeGreaterThanOrEqual(990_000);
    // Four connections at most: the rest of the burst waited in the device's backlog, reported as queued.
    expect(telemetry.queued).toBeGreaterThan(0);
    expect(telemetry.lag.totalCount).toBe(100);
    // What was sent is what the server stored: three smart-meter keys a message. Messages without
    // a ts that arrive in the same millisecond share the server's timestamp and overwrite each
    // other (ThingsBoard keeps one value per key and ts), so the check is per distinct timestamp.
    const keys = (await server.ctx.store.readTelemetry(record.id, (s) => s.latest())).map((e) => e.key);
    const points = await server.ctx.store.readTelemetry(record.id, (s) => s.range({ keys, startTs: 0, endTs: Date.now() + 1, limit: 1000, order: 'ASC' }));
    const stamps = new Set(points.map((p) => p.ts));
    expect(keys).toHaveLength(3);
    expect(stamps.size).toBeGreaterThan(0);
    expect(await storedRows(server.ctx.store, server.dbPath, record.id)).toBe(3 * stamps.size);
  });
});
