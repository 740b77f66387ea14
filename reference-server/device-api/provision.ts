// Operation 9: provisioning by profile key and secret. Every business outcome is HTTP 200 with a
// status, exactly as ThingsBoard: SUCCESS (the device's credentials), NOT_FOUND, FAILURE. A new
// device gets the credentials the request names (ThingsBoard DeviceServiceImpl.saveDevice(
// ProvisionRequest)): an access token, an X.509 certificate (`hash`) or MQTT basic credentials.
import { accessToken, mqttBasic, newDevice, randomToken, x509Certificate, type Credentials } from '../device-records.js';
import { ApiError } from '../errors.js';
import type { DeviceState } from '../device-state.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { DeviceRecord, JsonObject, Store } from '../store/types.js';
import type { Ok, Schema } from '../../spec/types.js';

type ProvisionRequest = Schema<'ProvisionRequest'>;

const NOT_FOUND = { errorMsg: 'Provision data was not found!', status: 'NOT_FOUND' } as const;
const FAILURE = { errorMsg: 'Failed to provision device!', status: 'FAILURE' } as const;
/** JsonConverter.toJson(ProvisionDeviceResponseMsg): MQTT basic credentials as a JSON object. */
function success(device: DeviceRecord) {
  const value = device.credentialsType === 'ACCESS_TOKEN' ? device.token
    : device.credentialsType === 'MQTT_BASIC' ? (JSON.parse(device.credentialsValue!) as JsonObject)
      : device.credentialsValue!; // X509_CERTIFICATE: the certificate
  return { credentialsValue: value, credentialsType: device.credentialsType, status: 'SUCCESS' } as const;
}

/**
 * The credentials a new device gets. As ThingsBoard, only when the request carries credential data
 * (token, hash, username, password or clientId) is the requested type used; else a generated token.
 */
function requestedCredentials(r: ProvisionRequest): Credentials {
  if (!r.token && !r.hash && !r.username && !r.password && !r.clientId) return accessToken();
  switch (r.credentialsType ?? 'ACCESS_TOKEN') {
    case 'X509_CERTIFICATE':
      return x509Certificate(r.hash ?? '');
    case 'MQTT_BASIC':
      return mqttBasic({ clientId: r.clientId, userName: r.username, password: r.password });
    default:
      return accessToken(r.token);
  }
}

const PROVISION_STATE = 'provisionState';

function markProvisioned(store: Store, device: DeviceRecord): void {
  store.upsertAttributes(device.id, 'SERVER_SCOPE', [
    { key: PROVISION_STATE, type: 'STRING', value: 'provisioned', ts: Date.now() },
  ]);
}

/**
 * Runs inside one write transaction, so that the checks and the creation are atomic. `state`: the
 * device state service, told of a device created here.
 */
function provision(store: Store, state: DeviceState, request: ProvisionRequest): Ok<'postProvision'> {
  const { provisionDeviceKey: key, provisionDeviceSecret: secret } = request;
  if (!key || !secret) return NOT_FOUND;
  const profile = store.profileByProvisionKey(key);
  if (!profile || profile.provisionType === 'DISABLED' || profile.provisionSecret !== secret) return NOT_FOUND;
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
  let credentials: Credentials;
  try {
    credentials = requestedCredentials(request);
  } catch (error) {
    if (error instanceof ApiError) return FAILURE;
    throw error;
  }
  const device = newDevice({
    name: deviceName,
    profileId: profile.id,
    type: profile.name,
    credentials,
    additionalInfo: request.gateway ? { gateway: true } : null,
  });
  try {
    store.insertDevice(device);
  } catch (error) {
    // The credentials id is taken (ThingsBoard: "Device credentials are already assigned").
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return FAILURE;
    throw error;
  }
  markProvisioned(store, device);
  state.created(device.id, device.createdTime);
  return success(device);
}

export function provisionHandlers({ store, deviceState }: ServerContext): Handlers {
  const run = (request: ProvisionRequest) => provision(store, deviceState, request);
  return {
    async postProvision(request, reply) {
      const outcome = await store.write(run, request.body);
      return reply.code(200).send(outcome);
    },
  };
}
