// Device profiles (ThingsBoard DeviceProfileController) with the provisioning configuration the
// device API's provisioning reads: provisionType, provisionDeviceKey and
// profileData.provisionConfiguration {type, provisionDeviceSecret}. Assigning a package to a
// profile applies to its devices that have none of their own.
import { randomUUID } from 'node:crypto';
import { badRequest } from '../errors.js';
import { checkPackage } from './devices.js';
import { entityId, orNotFound, optionalEntityId, pageData, pageQuery, refId } from './entities.js';
import { OTA_FIELD, OTA_TYPES, type OtaAssignment } from './ota-assignment.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { ProfileRecord, Store } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

type ProfileInput = Schema<'DeviceProfileInput'>;

export function profileJson(p: ProfileRecord): Schema<'DeviceProfile'> {
  return {
    id: entityId('DEVICE_PROFILE', p.id),
    createdTime: p.createdTime,
    name: p.name,
    type: p.type,
    transportType: p.transportType,
    description: p.description,
    default: p.isDefault,
    provisionType: p.provisionType,
    provisionDeviceKey: p.provisionKey,
    firmwareId: optionalEntityId('OTA_PACKAGE', p.firmwareId),
    softwareId: optionalEntityId('OTA_PACKAGE', p.softwareId),
    profileData: {
      configuration: { type: 'DEFAULT' },
      transportConfiguration: { type: 'DEFAULT' },
      provisionConfiguration: { type: p.provisionType, provisionDeviceSecret: p.provisionSecret },
    },
  };
}

const found = (store: Store, id: string): ProfileRecord => orNotFound(store.profileById(id), 'Device profile', id);

function save(store: Store, input: ProfileInput) {
  const id = refId(input.id);
  const before = id ? found(store, id) : undefined;
  const config = input.profileData?.provisionConfiguration;
  if (config && input.provisionType && config.type !== input.provisionType) {
    throw badRequest('provisionType and profileData.provisionConfiguration.type differ');
  }
  const profile: ProfileRecord = {
    id: before?.id ?? randomUUID(),
    name: input.name,
    type: input.type ?? before?.type ?? 'DEFAULT',
    transportType: input.transportType ?? before?.transportType ?? 'DEFAULT',
    description: input.description === undefined ? (before?.description ?? null) : input.description,
    isDefault: before?.isDefault === true || input.default === true,
    provisionType: config?.type ?? input.provisionType ?? before?.provisionType ?? 'DISABLED',
    provisionKey: input.provisionDeviceKey === undefined ? (before?.provisionKey ?? null) : input.provisionDeviceKey || null,
    provisionSecret: config?.provisionDeviceSecret === undefined ? (before?.provisionSecret ?? null) : config.provisionDeviceSecret || null,
    firmwareId: input.firmwareId === undefined ? (before?.firmwareId ?? null) : refId(input.firmwareId),
    softwareId: input.softwareId === undefined ? (before?.softwareId ?? null) : refId(input.softwareId),
    createdTime: before?.createdTime ?? Date.now(),
  };
  const named = store.profileByName(profile.name);
  if (named && named.id !== profile.id) throw badRequest('Device profile with such name already exists!');
  if (profile.provisionType !== 'DISABLED' && (!profile.provisionKey || !profile.provisionSecret)) {
    throw badRequest('Provision device key and secret are required when provisioning is enabled!');
  }
  const keyed = profile.provisionKey ? store.profileByProvisionKey(profile.provisionKey) : undefined;
  if (keyed && keyed.id !== profile.id) throw badRequest('Device profile with such provision device key already exists!');
  for (const type of OTA_TYPES) checkPackage(store, profile[OTA_FIELD[type]], type, profile.id);
  if (profile.isDefault && !before?.isDefault) {
    const previous = store.defaultProfile();
    store.updateProfile({ ...previous, isDefault: false });
  }
  if (before) store.updateProfile(profile);
  else store.insertProfile(profile);
  return { before, profile };
}

export function profileHandlers({ store }: ServerContext, ota: OtaAssignment): Handlers {
  const idOf = ({ deviceProfileId }: { deviceProfileId: string }) => deviceProfileId;
  const run = (input: ProfileInput) => save(store, input);

  return {
    async saveDeviceProfile(request, reply) {
      const { before, profile } = await store.write(run, request.body);
      for (const type of OTA_TYPES) {
        const field = OTA_FIELD[type];
        const was = before?.[field] ?? null;
        if (was === profile[field]) continue;
        for (const device of store.devicesByProfile(profile.id)) {
          if (device[field] === null) await ota.apply(device.id, type, was, profile[field]);
        }
      }
      return reply.code(200).send(profileJson(profile));
    },

    getDeviceProfile(request, reply) {
      return reply.code(200).send(profileJson(found(store, idOf(request.params))));
    },

    async deleteDeviceProfile(request, reply) {
      const id = idOf(request.params);
      await store.write(() => {
        const profile = found(store, id);
        if (profile.isDefault) throw badRequest('The default device profile cannot be deleted!');
        if (store.devicesUsingProfile(id) > 0) throw badRequest('The device profile referenced by the devices cannot be deleted!');
        store.deleteProfile(id);
      });
      return reply.code(200).send();
    },

    getDeviceProfiles(request, reply) {
      const page = pageQuery(request.query, 'profiles');
      return reply.code(200).send(pageData(store.listProfiles(page), page, profileJson));
    },
  };
}
