// Operation 9: provisioning by profile key and secret. Every business outcome is HTTP 200 with a
// status, exactly as ThingsBoard: SUCCESS (the device's token), NOT_FOUND, FAILURE.
import { newDevice, randomToken } from '../device-records.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { DeviceRecord, Store } from '../store/types.js';

interface ProvisionRequest {
  deviceName?: string;
  provisionDeviceKey: string;
  provisionDeviceSecret: string;
  credentialsType?: string;
  token?: string;
  gateway?: boolean;
}

const NOT_FOUND = { errorMsg: 'Provision data was not found!', status: 'NOT_FOUND' } as const;
const FAILURE = { errorMsg: 'Failed to provision device!', status: 'FAILURE' } as const;
const success = (device: DeviceRecord) =>
  ({ credentialsValue: device.token, credentialsType: 'ACCESS_TOKEN', status: 'SUCCESS' }) as const;

const PROVISION_STATE = 'provisionState';

function markProvisioned(store: Store, device: DeviceRecord): void {
  store.upsertAttributes(device.id, 'SERVER_SCOPE', [
    { key: PROVISION_STATE, type: 'STRING', value: 'provisioned', ts: Date.now() },
  ]);
}

/** Runs inside one write transaction, so that the checks and the creation are atomic. */
function provision(store: Store, request: ProvisionRequest) {
  const { provisionDeviceKey: key, provisionDeviceSecret: secret } = request;
  if (!key || !secret) return NOT_FOUND;
  const profile = store.profileByProvisionKey(key);
  if (!profile || profile.provisionType === 'DISABLED' || profile.provisionSecret !== secret) return NOT_FOUND;
  // dhi issues access tokens only.
  if (request.credentialsType && request.credentialsType !== 'ACCESS_TOKEN') return FAILURE;
  const name = request.deviceName?.trim();

  if (profile.provisionType === 'CHECK_PRE_PROVISIONED_DEVICES') {
    const device = name ? store.deviceByName(name) : undefined;
    if (!device || device.profileId !== profile.id) return FAILURE;
    if (store.attributes(device.id, 'SERVER_SCOPE', [PROVISION_STATE]).length > 0) return FAILURE;
    markProvisioned(store, device);
    return success(device);
  }

  // ALLOW_CREATE_NEW_DEVICES: a missing name is generated; a blank or taken one fails.
  if (name === '') return FAILURE;
  const deviceName = name ?? randomToken(20);
  if (store.deviceByName(deviceName)) return FAILURE;
  if (request.token && store.deviceByToken(request.token)) return FAILURE;
  const device = newDevice({
    name: deviceName,
    profileId: profile.id,
    token: request.token || undefined,
    additionalInfo: request.gateway ? { gateway: true } : null,
  });
  store.insertDevice(device);
  markProvisioned(store, device);
  return success(device);
}

export function provisionHandlers({ store }: ServerContext): Handlers {
  const run = (request: ProvisionRequest) => provision(store, request);
  return {
    async postProvision(request, reply) {
      const outcome = await store.write(run, request.body as ProvisionRequest);
      return reply.code(200).send(outcome);
    },
  };
}
