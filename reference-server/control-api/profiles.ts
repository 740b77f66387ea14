// Device profiles (ThingsBoard DeviceProfileController) with the provisioning configuration the
// device API's provisioning reads: provisionType, provisionDeviceKey and
// profileData.provisionConfiguration {type, provisionDeviceSecret}. Assigning a package to a
// profile applies to its devices that have none of their own.
import { randomUUID } from 'node:crypto';
import { badRequest } from '../errors.js';
import { checkPackage } from './devices.js';
import { entityId, kept, nextVersion, orNotFound, optionalEntityId, pageData, pageQuery, refId, TENANT } from './entities.js';
import { OTA_FIELD, OTA_TYPES, type OtaAssignment } from './ota-assignment.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { JsonObject, ProfileRecord, Store } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

type ProfileInput = Schema<'DeviceProfileInput'>;

export function profileJson(p: ProfileRecord): Schema<'DeviceProfile'> {
  return {
    id: entityId('DEVICE_PROFILE', p.id),
    createdTime: p.createdTime,
    tenantId: TENANT,
    name: p.name,
    description: p.description,
    image: p.image,
    type: 'DEFAULT',
    transportType: p.transportType as Schema<'TransportType'>,
    provisionType: p.provisionType,
    defaultRuleChainId: null,
    defaultDashboardId: null,
    defaultQueueName: p.defaultQueueName,
    provisionDeviceKey: p.provisionKey,
    firmwareId: optionalEntityId('OTA_PACKAGE', p.firmwareId),
    softwareId: optionalEntityId('OTA_PACKAGE', p.softwareId),
    defaultEdgeRuleChainId: null,
    externalId: optionalEntityId('DEVICE_PROFILE', p.externalId),
    version: p.version,
    default: p.isDefault,
    profileData: {
      // Kept as sent, which the contract's shape checked when it was saved.
      configuration: (p.configuration ?? { type: 'DEFAULT' }) as { type: 'DEFAULT' },
      transportConfiguration: (p.transportConfiguration ?? { type: p.transportType }) as { type: Schema<'TransportType'> },
      provisionConfiguration: { type: p.provisionType, provisionDeviceSecret: p.provisionSecret },
      alarms: null,
    },
  };
}

/** What dhi does not model: a profile that names one is refused, naming the property. */
const NOT_MODELLED_REFS = {
  defaultRuleChainId: 'rule chains',
  defaultEdgeRuleChainId: 'edges',
  defaultDashboardId: 'dashboards',
} as const;

const found = (store: Store, id: string): ProfileRecord => orNotFound(store.profileById(id), 'Device profile', id);

function save(store: Store, input: ProfileInput) {
  const id = refId(input.id);
  const before = id ? found(store, id) : undefined;
  const config = input.profileData?.provisionConfiguration ?? undefined;
  if (config && input.provisionType && config.type !== input.provisionType) {
    throw badRequest('provisionType and profileData.provisionConfiguration.type differ');
  }
  for (const [field, what] of Object.entries(NOT_MODELLED_REFS)) {
    if (refId(input[field as keyof typeof NOT_MODELLED_REFS])) throw badRequest(`dhi does not model ${what}: ${field} must be null`);
  }
  const data = input.profileData;
  // A transport configuration says the profile's transport type unless transportType does.
  const transportType = input.transportType ?? data?.transportConfiguration?.type ?? before?.transportType ?? 'DEFAULT';
  if (data?.transportConfiguration && data.transportConfiguration.type !== transportType) {
    throw badRequest(`Device profile transport type ${transportType} and its transportConfiguration.type ${data.transportConfiguration.type} differ`);
  }
  const profile: ProfileRecord = {
    id: before?.id ?? randomUUID(),
    name: input.name,
    type: 'DEFAULT',
    transportType,
    description: kept(input.description, before?.description),
    image: kept(input.image, before?.image),
    isDefault: before?.isDefault === true || input.default === true,
    provisionType: config?.type ?? input.provisionType ?? before?.provisionType ?? 'DISABLED',
    provisionKey: input.provisionDeviceKey === undefined ? (before?.provisionKey ?? null) : input.provisionDeviceKey || null,
    provisionSecret: config?.provisionDeviceSecret === undefined ? (before?.provisionSecret ?? null) : config.provisionDeviceSecret || null,
    firmwareId: input.firmwareId === undefined ? (before?.firmwareId ?? null) : refId(input.firmwareId),
    softwareId: input.softwareId === undefined ? (before?.softwareId ?? null) : refId(input.softwareId),
    defaultQueueName: kept(input.defaultQueueName, before?.defaultQueueName),
    // Parsed bodies: their objects hold JSON values (the contract types them loosely).
    configuration: kept(data?.configuration as JsonObject | null | undefined, before?.configuration),
    transportConfiguration: kept(data?.transportConfiguration as JsonObject | null | undefined, before?.transportConfiguration),
    externalId: input.externalId === undefined ? (before?.externalId ?? null) : refId(input.externalId),
    version: nextVersion('Device profile', before, input.version),
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
    store.updateProfile({ ...previous, isDefault: false, version: previous.version + 1 });
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
