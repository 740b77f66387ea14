// New device and profile records and device credentials, shared by provisioning and the control API. Credential
// ids are derived as ThingsBoard derives them (DeviceCredentialsServiceImpl, EncryptionUtil), so
// that a device provisioned here has the credentials id ThingsBoard would give it.
import { createHash, randomUUID } from 'node:crypto';
import { randomToken } from '../spec/access-token.js';
import { badRequest } from './errors.js';
import type { CredentialsType, DeviceRecord, JsonValue, ProfileRecord } from './store/types.js';

export interface Credentials {
  credentialsType: CredentialsType;
  /** Stored in DeviceRecord.token. */
  credentialsId: string;
  credentialsValue: string | null;
}

export const accessToken = (token?: string): Credentials =>
  ({ credentialsType: 'ACCESS_TOKEN', credentialsId: token || randomToken(), credentialsValue: null });

/** EncryptionUtil.certTrimNewLines: the PEM armour and line breaks go. */
const trimCertificate = (pem: string) =>
  pem.replaceAll('-----BEGIN CERTIFICATE-----', '').replaceAll('\n', '').replaceAll('\r', '').replaceAll('-----END CERTIFICATE-----', '');

/** EncryptionUtil.getSha3Hash: SHA3-256 hex of the trimmed text. */
const sha3 = (text: string) => createHash('sha3-256').update(trimCertificate(text), 'utf8').digest('hex');

/** X.509: the id is the SHA3-256 hex of the certificate text, the value the trimmed certificate. */
export function x509Certificate(certificate: string): Credentials {
  const value = trimCertificate(certificate);
  return { credentialsType: 'X509_CERTIFICATE', credentialsId: sha3(value), credentialsValue: value };
}

export interface MqttBasic {
  clientId?: string | null;
  userName?: string | null;
  password?: string | null;
}

/** MQTT basic: the id from client id and user name as ThingsBoard derives it; 400 as it refuses. */
export function mqttBasic({ clientId, userName, password }: MqttBasic): Credentials {
  if (!clientId && !userName) throw badRequest('Both mqtt client id and user name are empty!');
  if (clientId && password && !userName) throw badRequest('Password cannot be specified along with client id');
  const credentialsId = !clientId ? userName! : !userName ? sha3(clientId) : sha3(`${clientId}|${userName}`);
  const value = { clientId: clientId ?? null, userName: userName ?? null, password: password ?? null };
  return { credentialsType: 'MQTT_BASIC', credentialsId, credentialsValue: JSON.stringify(value) };
}

export function newDevice(fields: {
  name: string;
  profileId: string;
  /** The profile's name (ThingsBoard); 'default' for the default profile. */
  type?: string;
  credentials?: Credentials;
  label?: string | null;
  additionalInfo?: JsonValue | null;
}): DeviceRecord {
  const credentials = fields.credentials ?? accessToken();
  return {
    id: randomUUID(),
    name: fields.name,
    type: fields.type ?? 'default',
    label: fields.label ?? null,
    token: credentials.credentialsId,
    credentialsType: credentials.credentialsType,
    credentialsValue: credentials.credentialsValue,
    credentialsUuid: randomUUID(),
    credentialsVersion: 1,
    profileId: fields.profileId,
    customerId: null,
    firmwareId: null,
    softwareId: null,
    additionalInfo: fields.additionalInfo ?? null,
    deviceData: null,
    externalId: null,
    version: 1,
    createdTime: Date.now(),
  };
}

/**
 * The device with other credentials, saved at this credentials version (the byToken cache is keyed
 * by token: updateDevice forgets it).
 */
export const withCredentials = (device: DeviceRecord, c: Credentials, credentialsVersion: number): DeviceRecord =>
  ({ ...device, token: c.credentialsId, credentialsType: c.credentialsType, credentialsValue: c.credentialsValue, credentialsVersion });

/** A profile with ThingsBoard's defaults (DeviceProfileServiceImpl.findOrCreateDeviceProfile). */
export function newProfile(name: string): ProfileRecord {
  return {
    id: randomUUID(), name, type: 'DEFAULT', transportType: 'DEFAULT', description: null, isDefault: false,
    provisionType: 'DISABLED', provisionKey: null, provisionSecret: null, firmwareId: null, softwareId: null,
    image: null, defaultQueueName: null, configuration: null, transportConfiguration: null, externalId: null, version: 1,
    createdTime: Date.now(),
  };
}
