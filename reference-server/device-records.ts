// New device records and access tokens, shared by provisioning and the control API.
import { randomInt, randomUUID } from 'node:crypto';
import type { DeviceRecord, JsonObject } from './store/types.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 20 random alphanumeric characters from the CSPRNG, as ThingsBoard generates tokens. */
export function randomToken(length = 20): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export function newDevice(fields: {
  name: string;
  profileId: string;
  token?: string;
  type?: string;
  label?: string | null;
  additionalInfo?: JsonObject | null;
}): DeviceRecord {
  return {
    id: randomUUID(),
    name: fields.name,
    type: fields.type ?? 'default',
    label: fields.label ?? null,
    token: fields.token ?? randomToken(),
    profileId: fields.profileId,
    customerId: null,
    firmwareId: null,
    softwareId: null,
    additionalInfo: fields.additionalInfo ?? null,
    createdTime: Date.now(),
  };
}
