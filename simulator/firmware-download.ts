// A device's firmware download (operation 3 of the interface): the announced checksum, then the
// firmware whole or chunk by chunk, timed as a whole. Rare next to the hot paths, so it awaits.
import { checksum, CHECKSUM_ALGORITHMS, type ChecksumAlgorithm } from '../reference-server/control-api/checksums.js';
import { monoNow } from './clock.js';
import { parseObject, settle, type VirtualDevice } from './device.js';
import type { Outcome } from './metrics.js';
import { requestText } from './request-text.js';
import { exchange, type Exchange } from './exchange.js';

/** One request of the device, awaited: for the rare paths (firmware) where a promise costs nothing that matters. */
function request(device: VirtualDevice, path: string, limitMs: number): Promise<Exchange> {
  return new Promise((resolve) => device.link.send(exchange(null, requestText('GET', path, device.ctx.host), true, monoNow(), limitMs, resolve, device)));
}

/** The firmware's checksum as the server announces it in the shared attributes (operation 3). */
function announcedChecksum(reply: Exchange): { algorithm: ChecksumAlgorithm; value: string } | undefined {
  const shared = reply.status === 200 ? (parseObject(reply.body)?.shared as Record<string, unknown> | undefined) : undefined;
  const algorithm = shared?.fw_checksum_algorithm;
  const value = shared?.fw_checksum;
  if (typeof value !== 'string' || !(CHECKSUM_ALGORITHMS as readonly unknown[]).includes(algorithm)) return undefined;
  return { algorithm: algorithm as ChecksumAlgorithm, value: value.toLowerCase() };
}

/**
 * Download the assigned firmware once, whole or chunk by chunk until the empty chunk past the
 * end, and check the bytes against `fw_checksum`: a download that does not match (or that the
 * server gives no checksum for) is a `checksum` error, not a success. Each request has the
 * request timeout; the download is timed as a whole.
 */
export async function downloadFirmware(device: VirtualDevice): Promise<void> {
  const { ctx } = device;
  const plan = ctx.scenario.firmware;
  if (!plan) return;
  const query = `?title=${encodeURIComponent(plan.title)}&version=${encodeURIComponent(plan.version)}&size=${plan.chunkSize}`;
  const startedAt = monoNow();
  const parts: Buffer[] = [];
  const outcome = (reply: Exchange): Outcome | undefined => reply.failure ?? (reply.status === 200 ? undefined : `status ${reply.status}`);
  ctx.inFlight++;
  try {
    const announced = await request(device, `${device.routes.attributes}?sharedKeys=fw_checksum,fw_checksum_algorithm`, ctx.requestTimeoutMs);
    if (announced.failure) return void (ctx.ending || ctx.recorder.record('firmware', announced.failure, startedAt, 'sent'));
    const expected = announcedChecksum(announced);
    for (let chunk = 0; !ctx.ending; chunk++) {
      const reply = await request(device, `${device.routes.firmware}${query}&chunk=${chunk}`, ctx.requestTimeoutMs);
      const failed = outcome(reply);
      if (failed) return void (ctx.ending || ctx.recorder.record('firmware', failed, startedAt, 'sent'));
      const bytes = Buffer.from(reply.body, 'latin1');
      parts.push(bytes);
      if (plan.chunkSize === 0 || bytes.length === 0) {
        const matches = expected !== undefined && checksum(expected.algorithm, Buffer.concat(parts)) === expected.value;
        return ctx.recorder.record('firmware', matches ? 'ok' : 'checksum', startedAt, 'sent');
      }
    }
  } finally {
    settle(ctx);
  }
}
