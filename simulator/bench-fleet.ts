// `dhi bench --devices N`: the load of a fleet rather than of one device. Each request goes to the
// next device of the fleet, round robin over one counter that every connection shares, and a
// telemetry request carries values of its own. The bare route's client sends the very same requests
// (the same tokens, paths and bodies), so the load generator does the same work per request on both
// sides and the ratios compare the servers alone.
import type { Request as AutocannonRequest } from 'autocannon';
import { createControl, mapConcurrent } from './control.js';
import { fill, type Templates } from './routes.js';

export type FleetOp = 'telemetry' | 'attributes' | 'longpoll';

/** Control API calls in flight while a fleet is created on a --target or removed from it. */
const CONTROL_CONCURRENCY = 8;

/** What the fleet's requests are, by operation: a path per device and, for telemetry, a body per request. */
function fleetPath(op: FleetOp, t: Templates, token: string): string {
  if (op === 'telemetry') return fill(t.device.telemetry, { accessToken: token });
  if (op === 'attributes') return fill(t.device.attributes, { accessToken: token });
  // Long-poll turnover: a poll that times out at once (408), as in the one-device bench.
  return `${fill(t.device.attributeUpdates, { accessToken: token })}?timeout=1`;
}

/**
 * The three keys of the one-device bench (a counter, a flag, a level), with values of the request's
 * own: the n-th request of a run sends n, its parity, and a level that walks 0.0..99.9.
 */
export const telemetryBody = (n: number): string =>
  `{"pulseCounter":${n},"leakage":${(n & 1) === 1},"batteryLevel":${(n % 1000) / 10}}`;

/** An autocannon request that sets itself up before each sending. */
export type FleetRequest = AutocannonRequest & { setupRequest(request: AutocannonRequest): AutocannonRequest };

/**
 * autocannon's request list for one run over the first `devices` of `tokens`: one entry whose
 * setupRequest picks the next device and, for telemetry, the next values. A fresh list per run, so
 * that every run starts at the first device.
 */
export function fleetRequests(op: FleetOp, t: Templates, tokens: readonly string[], devices: number): FleetRequest[] {
  const paths = tokens.slice(0, devices).map((token) => fleetPath(op, t, token));
  let sent = 0;
  const setupRequest = (request: AutocannonRequest): AutocannonRequest => {
    const n = sent++;
    request.path = paths[n % paths.length];
    if (op === 'telemetry') request.body = telemetryBody(n);
    return request;
  };
  return [{ method: op === 'telemetry' ? 'POST' : 'GET', setupRequest }];
}

export interface TargetFleet {
  tokens: string[];
  /** Deletes the devices this bench created on the target. */
  remove(): Promise<void>;
}

/** `count` devices created on a running server through its control API (`dhi bench --target`). */
export async function createTargetFleet(
  options: { url: string; username: string; password: string },
  t: Templates,
  count: number,
): Promise<TargetFleet> {
  const control = createControl({ ...options, templates: t.control, connections: CONTROL_CONCURRENCY, requestTimeoutMs: 30_000 });
  const prefix = `bench-${Date.now().toString(36)}`;
  try {
    await control.login();
    const created = await mapConcurrent(Array.from({ length: count }, (_, i) => i), CONTROL_CONCURRENCY, (i) =>
      control.createDevice(count === 1 ? prefix : `${prefix}-${i}`));
    return {
      tokens: created.map((d) => d.token),
      async remove() {
        try {
          await mapConcurrent(created, CONTROL_CONCURRENCY, (d) => control.deleteDevice(d.id));
        } finally {
          await control.close();
        }
      },
    };
  } catch (error) {
    await control.close();
    throw error;
  }
}
