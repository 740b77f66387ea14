// Devices (ThingsBoard DeviceController): create or update, read, find by name, list, delete, and
// their access-token credentials. Package assignment goes through ota-assignment.ts.
import { newDevice } from '../device-records.js';
import { badRequest, notFound } from '../errors.js';
import { deviceJson, deviceOr404, entityId, pageData, pageQuery, refId, type EntityId } from './entities.js';
import { OTA_FIELD, OTA_TYPES, type OtaAssignment } from './ota-assignment.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { DeviceRecord, JsonObject, OtaType, Store } from '../store/types.js';

interface DeviceInput {
  id?: EntityId;
  name: string;
  type?: string;
  label?: string | null;
  deviceProfileId?: EntityId | null;
  firmwareId?: EntityId | null;
  softwareId?: EntityId | null;
  customerId?: EntityId | null;
  additionalInfo?: JsonObject | null;
}

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

/** The checks and the write of one save, inside one transaction. */
function save(store: Store, { input, token }: { input: DeviceInput; token?: string }) {
  const id = refId(input.id);
  const before = id ? store.deviceById(id) : undefined;
  if (id && !before) throw notFound(`Device with id [${id}] is not found`);
  const profileId = refId(input.deviceProfileId) ?? before?.profileId ?? store.defaultProfile().id;
  if (!store.profileById(profileId)) throw badRequest('Device is referencing to non-existent device profile!');
  const customerId = input.customerId === undefined ? (before?.customerId ?? null) : refId(input.customerId);
  if (customerId && !store.customerById(customerId)) throw badRequest('Device is referencing to non-existent customer!');
  const named = store.deviceByName(input.name);
  if (named && named.id !== id) throw badRequest('Device with such name already exists!');
  const device: DeviceRecord = {
    ...(before ?? newDevice({ name: input.name, profileId, token })),
    name: input.name,
    type: input.type ?? before?.type ?? 'default',
    label: input.label === undefined ? (before?.label ?? null) : input.label,
    profileId,
    customerId,
    firmwareId: input.firmwareId === undefined ? (before?.firmwareId ?? null) : refId(input.firmwareId),
    softwareId: input.softwareId === undefined ? (before?.softwareId ?? null) : refId(input.softwareId),
    additionalInfo: input.additionalInfo === undefined ? (before?.additionalInfo ?? null) : input.additionalInfo,
  };
  for (const type of OTA_TYPES) checkPackage(store, device[OTA_FIELD[type]], type, profileId);
  if (before) {
    store.updateDevice(device);
  } else {
    if (store.deviceByToken(device.token)) throw badRequest('Device credentials are already assigned to another device!');
    store.insertDevice(device);
  }
  return { before, device };
}

export function deviceHandlers(ctx: ServerContext, ota: OtaAssignment): Handlers {
  const { store, polls } = ctx;
  const found = (params: unknown) => deviceOr404(store, (params as { deviceId: string }).deviceId);
  const run = (arg: { input: DeviceInput; token?: string }) => save(store, arg);

  return {
    async saveDevice(request, reply) {
      const { accessToken } = request.query as { accessToken?: string };
      const { before, device } = await store.write(run, { input: request.body as DeviceInput, token: accessToken });
      for (const type of OTA_TYPES) {
        await ota.apply(device.id, type, before ? ota.effective(before, type) : null, ota.effective(device, type));
      }
      return reply.code(200).send(deviceJson(device));
    },

    getDevice(request, reply) {
      return reply.code(200).send(deviceJson(found(request.params)));
    },

    async deleteDevice(request, reply) {
      const device = found(request.params);
      await store.write(() => store.deleteDevice(device.id));
      polls.endDevice(device.id);
      return reply.code(200).send();
    },

    getDeviceCredentials(request, reply) {
      const device = found(request.params);
      return reply.code(200).send({
        createdTime: device.createdTime,
        deviceId: entityId('DEVICE', device.id),
        credentialsType: 'ACCESS_TOKEN',
        credentialsId: device.token,
        credentialsValue: null,
      });
    },

    getTenantDevices(request, reply) {
      const query = request.query as { deviceName?: string; textSearch?: string };
      if (query.deviceName !== undefined) {
        const device = store.deviceByName(query.deviceName);
        if (!device) throw notFound(`Device with name [${query.deviceName}] is not found`);
        return reply.code(200).send(deviceJson(device));
      }
      const page = pageQuery(query);
      return reply.code(200).send(pageData(store.listDevices(page.page, page.pageSize, query.textSearch), page, deviceJson));
    },
  };
}
