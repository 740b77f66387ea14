// One side of dhi bench --simulator in a child process of its own: it reports each measured run's
// requests and its own CPU, runs its warm-up unmeasured, and says why when the side fails.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureSide } from '../bench-side.js';
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

  it("reports each measured run's requests and the child's CPU over it; the warm-up run sends but is not reported", async () => {
    const before = received;
    const side = { kind: 'paced-floor', url, path: '/api/v1/T/telemetry', body: '{"a":1}', rate: 200, devices: 3 } as const;
    const runs = await measureSide(side, 250, [250, 500]);
    // 200/s: 50 requests in 250 ms, 100 in 500 ms, every one answered.
    expect(runs.map((r) => r.requests)).toEqual([50, 100]);
    for (const run of runs) expect(run.cpuMicros).toBeGreaterThan(0);
    // The server saw the warm-up's 50 requests too.
    expect(received - before).toBe(50 + 50 + 100);
  }, 60_000);

  it('rejects with the reason when the side fails in its child', async () => {
    const target = `http://127.0.0.1:${await closedPort()}`;
    const config = {
      target, controlUrl: target, username: 'u', password: 'p', devices: 1, durationMs: 0, scenario: builtinScenario('telemetry'),
      rampPerSecond: null, provision: null, tokensFile: null, workers: 0, seed: 1, keepDevices: false, insecure: false, warmupMs: null, maxConnectionsPerDevice: 1, requestTimeoutMs: 1000,
    };
    await expect(measureSide({ kind: 'simulator', config, reportDir: '/nonexistent' }, 0, [100])).rejects.toThrow(/the bench's simulator run failed: cannot use the control API/);
    await expect(measureSide({ kind: 'paced-floor', url: target, path: '/', body: '', rate: 100, devices: 1 }, 0, [100])).rejects.toThrow(/the bench's paced-floor run failed: .*ECONNREFUSED/);
  }, 60_000);
});
