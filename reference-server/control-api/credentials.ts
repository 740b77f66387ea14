// Device credentials through the REST API (DeviceController.updateDeviceCredentials and the
// credentials part of device-with-credentials): ThingsBoard's DeviceCredentials body to the
// credentials dhi stores, with ThingsBoard's validation messages. The credentials are an entity of
// their own there (an id, and a version for its optimistic lock): an update names them by id, as a
// client that read them first does (DeviceCredentialsDataValidator); without one it is a second
// create for the device, refused.
import { accessToken, mqttBasic, withCredentials, x509Certificate, type Credentials, type MqttBasic } from '../device-records.js';
import { badRequest } from '../errors.js';
import { credentialsJson, deviceOr404, nextVersion, refId } from './entities.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { DeviceRecord, Store } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

type CredentialsInput = Schema<'DeviceCredentialsInput'>;

function parseMqtt(value: string | null | undefined): MqttBasic {
  try {
    const parsed = JSON.parse(value ?? '') as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as MqttBasic;
  } catch {
    // answered below
  }
  throw badRequest('Invalid credentials body for simple mqtt credentials!');
}

export function credentialsFrom(input: CredentialsInput): Credentials {
  switch (input.credentialsType) {
    case 'ACCESS_TOKEN':
      if (!input.credentialsId) throw badRequest('Device credentials id should be specified!');
      return accessToken(input.credentialsId);
    case 'X509_CERTIFICATE':
      if (!input.credentialsValue) throw badRequest('Device credentials value should be specified!');
      return x509Certificate(input.credentialsValue);
    case 'MQTT_BASIC':
      return mqttBasic(parseMqtt(input.credentialsValue));
    default:
      throw badRequest('dhi does not model LwM2M devices: LWM2M_CREDENTIALS are not supported');
  }
}

/**
 * The next version of the device's credentials for a save that names them by `id` (or, for
 * device-with-credentials, finds them by device), ThingsBoard's JpaAbstractDao: a stale `version`
 * is 409 (its DAO names no entity type: `Entity was already changed by someone else`).
 */
export const nextCredentialsVersion = (device: DeviceRecord, version: number | null | undefined): number =>
  nextVersion('Entity', { version: device.credentialsVersion }, version);

function update(store: Store, input: CredentialsInput): DeviceRecord {
  const id = refId(input.deviceId);
  if (!id) throw badRequest('Device credentials should be assigned to device!');
  const device = deviceOr404(store, id);
  const credentialsId = input.id?.id;
  if (!credentialsId) throw badRequest('Credentials for this device are already specified!');
  if (credentialsId !== device.credentialsUuid) {
    // Another device's credentials moved to this device would break its one-credentials constraint.
    const taken = store.deviceByCredentialsUuid(credentialsId);
    throw badRequest(taken ? 'Specified credentials are already registered!' : 'Unable to update non-existent device credentials!');
  }
  const next = withCredentials(device, credentialsFrom(input), nextCredentialsVersion(device, input.version));
  const holder = store.deviceByCredentialsId(next.token);
  if (holder && holder.id !== device.id) throw badRequest('Device credentials are already assigned to another device!');
  store.updateDevice(next);
  return next;
}

export function credentialsHandlers({ store }: ServerContext): Handlers {
  const run = (input: CredentialsInput) => update(store, input);
  return {
    async updateDeviceCredentials(request, reply) {
      return reply.code(200).send(credentialsJson(await store.write(run, request.body)));
    },
  };
}
