// The paced floor of dhi bench --simulator records the send lag of what it sent, as dhi simulate
// does: how late each request left after its intended time, an early send counting as 0.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pacedFloorRun, sendLagRecorder } from '../bench-paced-floor.js';

describe("the paced floor's send lag", () => {
  it('records how late each send left after its intended time, an early one as 0, only for the sends meant for its window', () => {
    const all = sendLagRecorder();
    // 0.5 ms late, 0.5 ms early (0: recorded at the histograms' least value, 1 µs), 1.25 ms late.
    all.record(10, 10.5);
    all.record(20, 19.5);
    all.record(30, 31.25);
    expect(all.figures()).toEqual({ p50: 0.5, p99: 1.25, max: 1.25 });

    const window = sendLagRecorder(100, 200);
    window.record(50, 60);
    window.record(100, 100.25);
    window.record(150, 149);
    // The window's end is not in it.
    window.record(200, 205);
    expect(window.figures()).toEqual({ p50: 0.001, p99: 0.25, max: 0.25 });
    // Nothing sent: no lag, not NaN.
    expect(sendLagRecorder().figures()).toEqual({ p50: 0, p99: 0, max: 0 });
  });

  describe('in a real run', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer((request, response) => {
        request.resume();
        request.on('end', () => response.writeHead(200, { 'content-length': 0 }).end());
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('reports the send lag of the sends it made, over its window or the whole run', async () => {
      const options = { url, path: '/api/v1/T/telemetry', body: '{"a":1}', rate: 500, durationMs: 400, devices: 4 };
      const whole = await pacedFloorRun(options).done;
      const windowed = await pacedFloorRun({ ...options, lagWindow: { fromMs: 100, ms: 200 } }).done;
      for (const { answered, sendLagMs } of [whole, windowed]) {
        expect(answered).toBe(200);
        // Every send was recorded (an on-time or early one at 1 µs): the figures are ordered and not empty.
        expect(sendLagMs.p50).toBeGreaterThan(0);
        expect(sendLagMs.p50).toBeLessThanOrEqual(sendLagMs.p99);
        expect(sendLagMs.p99).toBeLessThanOrEqual(sendLagMs.max);
      }
    });
  });
});
