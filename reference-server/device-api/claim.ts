// Operation 8: the device opens a claiming window; a customer user claims it by name (control API).
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';

export function claimHandlers({ store, config }: ServerContext): Handlers {
  return {
    async postClaim(request, reply) {
      const body = (request.body ?? {}) as { secretKey?: string; durationMs?: number };
      const claim = {
        deviceId: request.device.id,
        secretKey: body.secretKey ?? '',
        // ThingsBoard treats an absent, zero or negative duration as device.claim.duration.
        expiresAt: Date.now() + (body.durationMs && body.durationMs > 0 ? body.durationMs : config.claimDurationMs),
      };
      await store.write(() => store.setClaim(claim));
      return reply.code(200).send();
    },
  };
}
