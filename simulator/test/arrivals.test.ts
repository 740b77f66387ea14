// The open-model scheduler over real sockets against the reference server: arrivals carry their
// intended send times (a late tick does not shorten the latency), arrivals beyond the in-flight cap
// are dropped and counted, and what was sent is what the server stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, startTestServer, stopTestServer, type TestServer } from '../../reference-server/test/helpers.js';
import { createArrivals } from '../arrivals.js';
import { monoNow } from '../clock.js';
import { createDevice as createVirtualDevice, sendTelemetry } from '../device.js';
import { createTarget, type Target } from '../http.js';
import { createInFlight } from '../in-flight.js';
import { latencyStats } from '../histograms.js';
import { createAggregate, createRecorder } from '../metrics.js';
import { loadTemplates } from '../routes.js';
import { scenarioFromJson } from '../scenario.js';

describe('open-model arrivals', () => {
  let server: TestServer;
  let target: Target;

  beforeAll(async () => {
    server = await startTestServer();
    target = createTarget({ url: server.httpUrl, connections: 4, pollConnections: 0, localAddresses: [], pollTimeoutMs: 1000, requestTimeoutMs: 10_000, insecure: false });
  });
  afterAll(async () => {
    await target.close();
    await stopTestServer(server);
  });

  it('sends overdue arrivals stamped with their intended times, drops those beyond the cap, and counts both', async () => {
    const record = await createDevice(server.ctx);
    const scenario = scenarioFromJson({ name: 'open', extends: 'telemetry', telemetry: { rate: 100 } });
    const device = createVirtualDevice(0, record.token, (await loadTemplates()).device, target.basePath, { short: target.shortPool(0), poll: target.pollPool(0), fast: target.statusClient(0) }, scenario, 1);
    const recorder = createRecorder();
    const inFlight = createInFlight();
    const ctx = { scenario, recorder, track: inFlight.track };
    // The schedule began a second ago and no tick has run since: 100 arrivals are overdue.
    const startAt = monoNow() - 1000;
    const arrivals = createArrivals({
      rate: 100,
      startAt,
      slotMs: 1,
      maxInFlight: 10,
      inFlight: createInFlight(),
      send: (intendedAt) => sendTelemetry(device, ctx, intendedAt, 'intended'),
      drop: (intendedAt) => recorder.record('telemetry', 'dropped', intendedAt, 'untimed'),
    });
    arrivals.tick(monoNow());
    expect(arrivals.issued).toBe(100);
    await inFlight.idle();

    const aggregate = createAggregate();
    aggregate.absorb(recorder.drain(), 0);
    const telemetry = aggregate.phases.warmup.get('telemetry')!;
    expect(telemetry.ok).toBe(10);
    expect(telemetry.errors).toEqual({ dropped: 90 });
    expect(telemetry.ok + telemetry.errors.dropped!).toBe(arrivals.issued);
    // All ten were timed from their intended times (10 ... 100 ms after startAt), so each waited at least 900 ms.
    expect(telemetry).toMatchObject({ intended: 10, sent: 0 });
    expect(latencyStats(telemetry.histogram).minMs).toBeGreaterThanOrEqual(900);
    // What was sent is what the server stored: three smart-meter keys a message. Messages without
    // a ts that arrive in the same millisecond share the server's timestamp and overwrite each
    // other (ThingsBoard keeps one value per key and ts), so the check is per distinct timestamp.
    const keys = (await server.ctx.store.readTelemetry(record.id, (s) => s.latest())).map((e) => e.key);
    const points = await server.ctx.store.readTelemetry(record.id, (s) => s.range({ keys, startTs: 0, endTs: Date.now() + 1, limit: 1000, order: 'ASC' }));
    const stamps = new Set(points.map((p) => p.ts));
    expect(keys).toHaveLength(3);
    expect(stamps.size).toBeGreaterThan(0);
    expect(stamps.size).toBeLessThanOrEqual(10);
    expect(await server.ctx.store.readTelemetry(record.id, (s) => s.count())).toBe(3 * stamps.size);
  });

  it('issues nothing before the first arrival is due, then one arrival per 1/rate', () => {
    const sent: number[] = [];
    const arrivals = createArrivals({ rate: 4, startAt: 1000, slotMs: 1, maxInFlight: 100, inFlight: createInFlight(), send: async (at) => void sent.push(at), drop: () => {} });
    arrivals.tick(1000);
    arrivals.tick(1249);
    expect(sent).toEqual([]);
    arrivals.tick(1750);
    expect(sent).toEqual([1250, 1500, 1750]);
    arrivals.tick(1750);
    expect(arrivals.issued).toBe(3);
  });

  it('sends the arrivals of a slot together at its end, stamped with that end, not with their exact times', () => {
    const sent: number[] = [];
    // 1000/s in 5 ms slots: arrivals fall at 1, 2, 3 ... ms; those of 1-5 are due and stamped at 5.
    const arrivals = createArrivals({ rate: 1000, startAt: 0, slotMs: 5, maxInFlight: 100, inFlight: createInFlight(), send: async (at) => void sent.push(at), drop: () => {} });
    arrivals.tick(4.9);
    expect(sent).toEqual([]);
    arrivals.tick(5.2);
    expect(sent).toEqual([5, 5, 5, 5, 5]);
    // A late tick (at 17 ms) sends the two overdue slots, each stamped with its own end.
    arrivals.tick(17);
    expect(sent.slice(5)).toEqual([10, 10, 10, 10, 10, 15, 15, 15, 15, 15]);
    // A rate that does not divide the slot: 3 per second in 200 ms slots, at 333.3, 666.7, 1000 ms.
    const third: number[] = [];
    const slow = createArrivals({ rate: 3, startAt: 0, slotMs: 200, maxInFlight: 100, inFlight: createInFlight(), send: async (at) => void third.push(at), drop: () => {} });
    slow.tick(1000);
    expect(third).toEqual([400, 800, 1000]);
  });
});
