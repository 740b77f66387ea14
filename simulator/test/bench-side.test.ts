// One side of dhi bench --simulator in a child process of its own: it runs its side once per run
// asked, says when the load began, reports each run's requests and its own CPU, and says why when
// the side fails.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSide } from '../bench-side.js';
import { builtinScenario } from '../scenario.js';
import { closedPort } from '../../test/ports.js';

describe('a side of dhi bench --simulator in a child process', () => {
  let server: Server;
  let url: string;
  let received = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received++;
        response.writeHead(200, { 'content-length': 0 }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("runs its side for each run asked, at the rate asked, and reports each run's requests and the child's CPU over it and over its window", async () => {
    const before = received;
    const side = await startSide({ kind: 'paced-floor', url, path: '/api/v1/T/telemetry', body: '{"a":1}', rate: 200, devices: 3 });
    try {
      const first = side.run(250);
      await first.started;
      // 200/s: 50 requests in 250 ms; 400/s (this run's own rate): 100; 200/s for 500 ms: 100. Every one answered.
      const runs = [await first.cost, await side.run(250, { rate: 400 }).cost, await side.run(500, { window: { fromMs: 100, ms: 200 } }).cost];
      expect(runs.map((r) => [r.requests, r.loadMs])).toEqual([[50, 250], [100, 250], [100, 500]]);
      for (const run of runs) expect(run.cpuMicros).toBeGreaterThan(0);
      // Each run of the floor reports the send lag of what it sent (over its window when it had one).
      for (const { sendLagMs } of runs) {
        expect(sendLagMs!.p50).toBeGreaterThan(0);
        expect(sendLagMs!.p50).toBeLessThanOrEqual(sendLagMs!.p99);
        expect(sendLagMs!.p99).toBeLessThanOrEqual(sendLagMs!.max);
      }
      // Only the last run had a window: part of its CPU and of its requests, counted.
      expect(runs.map((r) => r.window.cpuMicros > 0)).toEqual([false, false, true]);
      expect(runs.map((r) => r.window.requests > 0)).toEqual([false, false, true]);
      expect(runs[2].window.cpuMicros).toBeLessThan(runs[2].cpuMicros);
      expect(runs[2].window.requests).toBeLessThan(runs[2].requests);
      expect(received - before).toBe(50 + 100 + 100);
      // A window the run does not outlast is refused, not measured short.
      await expect(side.run(100, { window: { fromMs: 50, ms: 500 } }).cost).rejects.toThrow(/the run ended before its measured window did \(550 ms after the load began\)/);
    } finally {
      side.close();
    }
  }, 60_000);

  it('rejects with the reason when the side fails in its child', async () => {
    const target = `http://127.0.0.1:${await closedPort()}`;
    const config = {
      target, controlUrl: target, username: 'u', password: 'p', devices: 1, durationMs: 0, scenario: builtinScenario('telemetry'),
      rampPerSecond: null, provision: null, tokensFile: null, workers: 0, seed: 1, keepDevices: false, insecure: false, warmupMs: null, maxConnectionsPerDevice: 1, requestTimeoutMs: 1000,
    };
    const simulator = await startSide({ kind: 'simulator', config, reportDir: '/nonexistent' });
    const failed = simulator.run(100);
    // The fleet never came up: the run fails before its load begins, and says why.
    await expect(failed.started).rejects.toThrow(/the bench's simulator run failed: cannot use the control API/);
    await expect(failed.cost).rejects.toThrow(/the bench's simulator run failed: cannot use the control API/);
    simulator.close();
    const floor = await startSide({ kind: 'paced-floor', url: target, path: '/', body: '', rate: 100, devices: 1 });
    await expect(floor.run(100).cost).rejects.toThrow(/the bench's paced-floor run failed: .*ECONNREFUSED/);
    floor.close();
  }, 60_000);
});
