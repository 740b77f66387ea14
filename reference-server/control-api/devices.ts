// Devices (ThingsBoard DeviceController): create or update, read, find by name, list, delete, and
// their access-token credentials. Package assignment goes through ota-assignment.ts.
import { accessToken, newDevice, newProfile, withCredentials, type Credentials } from '../device-records.js';
import { credentialsFrom, nextCredentialsVersion } from './credentials.js';
import { badRequest, notFound } from '../errors.js';
import {
  credentialsJson, defaultDeviceData, deviceByNameOr404, deviceJson, deviceOr404, kept, nextVersion, pageData, pageQuery, refId,
} from './entities.js';
import { OTA_FIELD, OTA_TYPES, type OtaAssignment } from './ota-assignment.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { DeviceRecord, JsonObject, JsonValue, OtaType, ProfileRecord, Store } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

type DeviceInput = Schema<'DeviceInput'>;

/** ThingsBoard's DeviceDataValidator checks on a package assigned to a device or a profile. */
export function checkPackage(store: Store, packageId: string | null, type: OtaType, profileId: string): void {
  if (!packageId) return;
  const ota = store.otaById(packageId);
  const what = type === 'FIRMWARE' ? 'firmware' : 'software';
  if (!ota) throw badRequest(`Can't assign non-existent ${what}!`);
  if (ota.type !== type) throw badRequest(`Can't assign ${what} with type: ${ota.type}`);
  if (ota.dataSize === null && !ota.url) throw badRequest(`Can't assign ${what} with empty data!`);
  if (ota.profileId && ota.profileId !== profileId) throw badRequest(`Can't assign ${what} with different deviceProfile!`);
}

/**
 * DeviceServiceImpl: `deviceProfileId` names the profile; without it `type` does (the profile of that
 * name, created when missing), then the device's own profile, then the default one. The device's
 * type is always its profile's name.
 */
function profileFor(store: Store, input: DeviceInput, before: DeviceRecord | undefined): ProfileRecord {
  const profileId = refId(input.deviceProfileId);
  if (profileId) {
    const profile = store.profileById(profileId);
    if (!profile) throw badRequest('Device is referencing to non-existent device profile!');
    return profile;
  }
  if (input.type) {
    const named = store.profileByName(input.type);
    if (named) return named;
    const created = newProfile(input.type);
    store.insertProfile(created);
    return created;
  }
  return (before && store.profileById(before.profileId)) ?? store.defaultProfile();
}

interface SaveArg {
  input: DeviceInput;
  /** A new device's credentials (a generated token when absent). */
  credentials?: Credentials;
  /** Replace an existing device's credentials too (device-with-credentials), at their version as sent. */
  replaceCredentials?: boolean;
  credentialsVersion?: number | null;
}

/** The checks and the write of one save, inside one transaction. */
function save(store: Store, { input, credentials, replaceCredentials, credentialsVersion }: SaveArg) {
  const id = refId(input.id);
  const before = id ? store.deviceById(id) : undefined;
  if (id && !before) throw notFound(`Device with id [${id}] is not found`);
  const profile = profileFor(store, input, before);
  const profileId = profile.id;
  const customerId = input.customerId === undefined ? (before?.customerId ?? null) : refId(input.customerId);
  if (customerId && !store.customerById(customerId)) throw badRequest('Device is referencing to non-existent customer!');
  const named = store.deviceByName(input.name);
  if (named && named.id !== id) throw badRequest('Device with such name already exists!');
  const device: DeviceRecord = {
    ...(before ?? newDevice({ name: input.name, profileId, type: profile.name, credentials })),
    name: input.name,
    type: profile.name,
    label: kept(input.label, before?.label),
    profileId,
    customerId,
    firmwareId: input.firmwareId === undefined ? (before?.firmwareId ?? null) : refId(input.firmwareId),
    softwareId: input.softwareId === undefined ? (before?.softwareId ?? null) : refId(input.softwareId),
    // Parsed bodies: their objects hold JSON values (the contract types them loosely).
    additionalInfo: kept(input.additionalInfo as JsonValue | undefined, before?.additionalInfo),
    deviceData: (input.deviceData ?? before?.deviceData ?? defaultDeviceData(profile.transportType)) as JsonObject,
    externalId: input.externalId === undefined ? (before?.externalId ?? null) : refId(input.externalId),
    version: nextVersion('Device', before, input.version),
  };
  for (const type of OTA_TYPES) checkPackage(store, device[OTA_FIELD[type]], type, profileId);
  if (before) {
    const next = replaceCredentials && credentials
      ? withCredentials(device, credentials, nextCredentialsVersion(before, credentialsVersion)) : device;
    if (next.token !== before.token && store.deviceByCredentialsId(next.token)) {
      throw badRequest('Device credentials are already assigned to another device!');
    }
    store.updateDevice(next);
    return { before, device: next };
  } else {
    insertDevice(store, device);
  }
  return { before, device };
}

/** Inserts a new device; a credentials id already in use is 400 (ThingsBoard's wording). */
export function insertDevice(store: Store, device: DeviceRecord): void {
  try {
    store.insertDevice(device);
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error;
    throw badRequest('Device credentials are already assigned to another device!');
  }
}

export function deviceHandlers(ctx: ServerContext, ota: OtaAssignment): Handlers {
  const { store, polls, rpc } = ctx;
  const found = ({ deviceId }: { deviceId: string }) => deviceOr404(store, deviceId);
  const run = (arg: SaveArg) => {
    const saved = save(store, arg);
    if (!saved.before) ctx.deviceState.created(saved.device.id, saved.device.createdTime);
    return saved;
  };
  const saved = async (arg: SaveArg) => {
    const { before, device } = await store.write(run, arg);
    for (const type of OTA_TYPES) {
      await ota.apply(device.id, type, before ? ota.effective(before, type) : null, ota.effective(device, type));
    }
    return deviceJson(device);
  };

  return {
    async saveDevice(request, reply) {
      // An empty accessToken is a missing one: a token is generated (ThingsBoard's msa tests rely on it).
      const token = request.query.accessToken;
      return reply.code(200).send(await saved({ input: request.body, credentials: accessToken(token || undefined) }));
    },

    async saveDeviceWithCredentials(request, reply) {
      const { device, credentials } = request.body;
      return reply.code(200).send(await saved({
        input: device, credentials: credentialsFrom(credentials), replaceCredentials: true, credentialsVersion: credentials.version,
      }));
    },

    getDevice(request, reply) {
      return reply.code(200).send(deviceJson(found(request.params)));
    },

    async deleteDevice(request, reply) {
      const device = found(request.params);
      await store.write(() => store.deleteDevice(device.id));
      polls.endDevice(device.id);
      ctx.deviceState.deleted(device.id);
      rpc.forgetDevice(device.id);
      return reply.code(200).send();
    },

    getDeviceCredentials(request, reply) {
      const device = found(request.params);
      return reply.code(200).send(credentialsJson(device));
    },

    getTenantDevices(request, reply) {
      const { query } = request;
      if (query.deviceName !== undefined) return reply.code(200).send(deviceJson(deviceByNameOr404(store, query.deviceName)));
      const page = pageQuery(query, 'devices');
      return reply.code(200).send(pageData(store.listDevices(page, { type: query.type || undefined }), page, deviceJson));
    },
  };
}
