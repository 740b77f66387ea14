// What a virtual device puts on the wire: its telemetry request text, built from a head made once
// per device and the message's body, says the body's length in bytes (content-length), for every
// profile and message form, and is the text any other request of the simulator would have; and a
// server receives exactly its bytes.
import { describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { createDevice, sendTelemetry, telemetryText, type DeviceContext } from '../device.js';
import { requestText } from '../request-text.js';
import { createRecorder } from '../metrics.js';
import { createPacer } from '../pacer.js';
import { loadTemplates } from '../routes.js';
import { scenarioFromJson, type Scenario } from '../scenario.js';
import { createWire, type Link } from '../wire.js';
import { monoNow } from '../clock.js';

const link: Link = { send: () => {}, connect: () => {}, open: 0 };

async function deviceFor(scenario: Scenario, token: string, over = link, host = 'sim.example:8080', settled = () => {}) {
  const ctx: DeviceContext = {
    scenario, recorder: createRecorder(), pacer: createPacer(), host, requestTimeoutMs: 10_000, inFlight: 0, issuing: true, ending: false, settled,
  };
  return createDevice(3, token, (await loadTemplates()).device, '/base', over, ctx, 7);
}

/** A TCP server that keeps every byte it receives and answers each complete request 204. */
async function recordingServer() {
  const received: Buffer[] = [];
  const server = createServer((socket) => {
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) break;
        pending = pending.slice(end + 4 + length);
        socket.write('HTTP/1.1 204 No Content\r\n\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, received, host: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("a virtual device's requests", () => {
  it('writes each telemetry message as requestText would, its content-length the body in bytes, for every profile and form', async () => {
    for (const profile of ['smart-meter', 'tracker', 'plc:3']) {
      for (const telemetry of [{ form: 'values' }, { form: 'timestamped' }, { form: 'array', batch: 4 }, false] as const) {
        const device = await deviceFor(scenarioFromJson({ name: 'x', extends: 'telemetry', profile, telemetry }), 'tok-1');
        for (let i = 0; i < 5; i++) {
          const text = telemetryText(device);
          const body = text.slice(text.indexOf('\r\n\r\n') + 4);
          expect(JSON.parse(body)).toBeTruthy();
          expect(text).toBe(requestText('POST', device.routes.telemetry, 'sim.example:8080', body));
          expect(text).toContain(`\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`);
          expect(text.startsWith(`POST /base/api/v1/tok-1/telemetry HTTP/1.1\r\nhost: sim.example:8080\r\n`)).toBe(true);
        }
      }
    }
  });

  it('counts bytes, not chars, where a body may not be ASCII (an RPC reply)', () => {
    const body = '{"method":"é"}';
    expect(requestText('POST', '/x', 'h', body)).toBe(`POST /x HTTP/1.1\r\nhost: h\r\ncontent-type: application/json\r\ncontent-length: 15\r\n\r\n${body}`);
  });

  it('puts exactly those bytes on a connection: a real socket receives each message as the bytes of requestText of its body', async () => {
    const { server, received, host } = await recordingServer();
    const wire = createWire({ url: `http://${host}`, insecure: false, maxConnectionsPerLink: 4, maxConnections: 10 });
    try {
      const scenario = scenarioFromJson({ name: 'x', extends: 'telemetry', profile: 'tracker', telemetry: { form: 'values' } });
      let answered = () => {};
      const device = await deviceFor(scenario, 'tok-ü', wire.link(), host, () => answered());
      // The same device again (same seed and index), off the wire: the bodies the first one sends, in order.
      const twin = await deviceFor(scenario, 'tok-ü');
      const expected: string[] = [];
      for (let i = 0; i < 5; i++) {
        await new Promise<void>((resolve) => {
          answered = resolve;
          sendTelemetry(device, monoNow());
        });
        expected.push(requestText('POST', device.routes.telemetry, host, twin.nextValues()));
      }
      const { warmup, steady } = device.ctx.recorder.drain();
      expect((warmup.telemetry?.ok ?? 0) + (steady.telemetry?.ok ?? 0)).toBe(5);
      expect(Buffer.concat(received).equals(Buffer.from(expected.join('')))).toBe(true);
      expect(expected[0].startsWith(`POST /base/api/v1/tok-%C3%BC/telemetry HTTP/1.1\r\nhost: ${host}\r\n`)).toBe(true);
    } finally {
      wire.destroy('unfinished');
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
