// Claiming (ThingsBoard DeviceController.claimDevice, ClaimDevicesServiceImpl): a customer user
// claims a device by name within the window the device opened (operation 8) with the same secret.
// Outcomes are ThingsBoard's: 200 {device, response: "SUCCESS"}; 400 with the bare JSON string
// "FAILURE" (no window, expired, wrong key: a failed attempt removes the window) or "CLAIMED".
import { forbidden } from '../errors.js';
import { deviceByNameOr404, deviceJson } from './entities.js';
import type { ServerContext } from '../context.js';
import { sendJson, type Handlers } from '../handler.js';
import type { DeviceRecord, Store, UserRecord } from '../store/types.js';

type ClaimOutcome = { device: DeviceRecord; response: 'SUCCESS' } | { response: 'FAILURE' | 'CLAIMED' };

/** One transaction: the checks, and the assignment or the removal of the window. */
function claim(store: Store, { deviceName, secretKey, customerId }: { deviceName: string; secretKey: string; customerId: string }): ClaimOutcome {
  const device = deviceByNameOr404(store, deviceName);
  if (device.customerId) return { response: 'CLAIMED' };
  const open = store.claim(device.id);
  if (!open) return { response: 'FAILURE' };
  store.deleteClaim(device.id);
  const now = Date.now();
  // Past the cache's TTL ThingsBoard no longer finds the window at all: FAILURE too.
  if (open.expiresAt <= now || open.cachedUntil <= now || open.secretKey !== secretKey) return { response: 'FAILURE' };
  const claimed = { ...device, customerId, version: device.version + 1 };
  store.updateDevice(claimed);
  return { device: claimed, response: 'SUCCESS' };
}

function reclaim(store: Store, { deviceName, user }: { deviceName: string; user: UserRecord }): void {
  const device = deviceByNameOr404(store, deviceName);
  if (user.authority === 'CUSTOMER_USER' && device.customerId !== user.customerId) {
    throw forbidden("You don't have permission to perform this operation!");
  }
  if (device.customerId) store.updateDevice({ ...device, customerId: null, version: device.version + 1 });
}

export function claimingHandlers({ store }: ServerContext): Handlers {
  const runClaim = (arg: Parameters<typeof claim>[1]) => claim(store, arg);
  const runReclaim = (arg: Parameters<typeof reclaim>[1]) => reclaim(store, arg);

  return {
    async claimDevice(request, reply) {
      const { deviceName } = request.params;
      // ThingsBoard's device side stores a missing secret as "": a body without one matches it.
      // The body is optional: absent, Fastify hands over null or undefined.
      const secretKey = request.body?.secretKey ?? '';
      const outcome = await store.write(runClaim, { deviceName, secretKey, customerId: request.user.customerId! });
      if (!('device' in outcome)) return sendJson(reply, 400, outcome.response);
      return reply.code(200).send({ device: deviceJson(outcome.device), response: outcome.response });
    },

    async reclaimDevice(request, reply) {
      const { deviceName } = request.params;
      await store.write(runReclaim, { deviceName, user: request.user });
      return reply.code(200).send();
    },
  };
}
