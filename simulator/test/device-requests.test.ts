// What a virtual device puts on the wire: its telemetry request text, built from a head made once
// per device and the message's body, says the body's length in bytes (content-length), for every
// profile and message form, and is the text any other request of the simulator would have.
import { describe, expect, it } from 'vitest';
import { createDevice, telemetryText, type DeviceContext } from '../device.js';
import { requestText } from '../request-text.js';
import { createRecorder } from '../metrics.js';
import { createPacer } from '../pacer.js';
import { loadTemplates } from '../routes.js';
import { scenarioFromJson, type Scenario } from '../scenario.js';
import type { Link } from '../wire.js';

const link: Link = { send: () => {}, connect: () => {}, open: 0 };

async function deviceFor(scenario: Scenario, token: string) {
  const ctx: DeviceContext = {
    scenario, recorder: createRecorder(), pacer: createPacer(), host: 'sim.example:8080', requestTimeoutMs: 10_000, inFlight: 0, issuing: true, ending: false, settled: () => {},
  };
  return createDevice(3, token, (await loadTemplates()).device, '/base', link, ctx, 7);
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
});
