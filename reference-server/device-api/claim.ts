// Operation 8: the device opens a claiming window; a customer user claims it by name (control API).
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { ClaimRecord, Store } from '../store/types.js';

/**
 * ThingsBoard (ClaimDevicesServiceImpl) keeps the first window while its cache holds it (putIfAbsent),
 * even once the window has expired: only a claim attempt (which evicts it) or the cache's TTL makes
 * room for a new one. It opens none for a device a customer already owns. The device is answered 200
 * either way.
 */
function openWindow(store: Store, claim: ClaimRecord): void {
  if (store.deviceById(claim.deviceId)?.customerId) return;
  const cached = store.claim(claim.deviceId);
  if (cached && cached.cachedUntil > Date.now()) return;
  store.setClaim(claim);
}

export function claimHandlers({ store, config }: ServerContext): Handlers {
  const run = (claim: ClaimRecord) => openWindow(store, claim);
  return {
    async postClaim(request, reply) {
      const { body } = request; // optional: null or undefined when absent
      const durationMs = body?.durationMs;
      const now = Date.now();
      await store.write(run, {
        deviceId: request.device.id,
        secretKey: body?.secretKey ?? '',
        // ThingsBoard treats an absent, zero or negative duration as device.claim.duration.
        expiresAt: now + (durationMs && durationMs > 0 ? durationMs : config.claimDurationMs),
        cachedUntil: now + config.claimCacheTtlMs,
      });
      return reply.code(200).send();
    },
  };
}
