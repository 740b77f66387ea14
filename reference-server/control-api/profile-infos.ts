// The rest of ThingsBoard's DeviceProfileController: profile infos (one, the default, a page, by
// ids), profile names, the keys used by a profile's devices, and making a profile the default.
import { entityId, orNotFound, pageData, pageQuery, TENANT, uuidList } from './entities.js';
import { profileJson } from './profiles.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { ProfileRecord, Store } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

/** ThingsBoard's DeviceProfileInfo: dhi has no dashboards, so that is null. */
export const profileInfoJson = (p: ProfileRecord): Schema<'DeviceProfileInfo'> => ({
  id: entityId('DEVICE_PROFILE', p.id), tenantId: TENANT, name: p.name, image: p.image, defaultDashboardId: null,
  type: p.type, transportType: p.transportType,
});

const found = (store: Store, id: string): ProfileRecord => orNotFound(store.profileById(id), 'Device profile', id);

/** The optional `deviceProfileId` of the key lists: absent means every device; unknown is 404. */
function profileFilter(store: Store, { deviceProfileId }: { deviceProfileId?: string }): string | null {
  if (!deviceProfileId) return null;
  return found(store, deviceProfileId).id;
}

function makeDefault(store: Store, id: string): ProfileRecord {
  const profile = found(store, id);
  if (profile.isDefault) return profile;
  const previous = store.defaultProfile();
  store.updateProfile({ ...previous, isDefault: false, version: previous.version + 1 });
  const next = { ...profile, isDefault: true, version: profile.version + 1 };
  store.updateProfile(next);
  return next;
}

export function profileInfoHandlers({ store }: ServerContext): Handlers {
  const idOf = ({ deviceProfileId }: { deviceProfileId: string }) => deviceProfileId;
  const runMakeDefault = (id: string) => makeDefault(store, id);

  return {
    getDeviceProfileInfo(request, reply) {
      return reply.code(200).send(profileInfoJson(found(store, idOf(request.params))));
    },

    getDefaultDeviceProfileInfo(_request, reply) {
      return reply.code(200).send(profileInfoJson(store.defaultProfile()));
    },

    getDeviceProfileInfos(request, reply) {
      const { query } = request;
      // ThingsBoard maps the same path with `deviceProfileIds` to a plain list of those profiles.
      if (query.deviceProfileIds !== undefined) return reply.code(200).send(infosByIds(store, query.deviceProfileIds));
      const page = pageQuery(query, 'profiles');
      return reply.code(200).send(pageData(store.listProfiles(page, { transportType: query.transportType || undefined }), page, profileInfoJson));
    },

    getDeviceProfileInfosByIds(request, reply) {
      return reply.code(200).send(infosByIds(store, request.query.deviceProfileIds));
    },

    getDeviceProfileNames(request, reply) {
      // The validator fills in the default (false); the type keeps the parameter optional.
      return reply.code(200).send(store.profileNames(request.query.activeOnly === true).map((p) => ({ id: entityId('DEVICE_PROFILE', p.id), name: p.name })));
    },

    async getDeviceProfileTimeseriesKeys(request, reply) {
      return reply.code(200).send(await store.profileTelemetryKeys(profileFilter(store, request.query)));
    },

    getDeviceProfileAttributesKeys(request, reply) {
      return reply.code(200).send(store.profileAttributeKeys(profileFilter(store, request.query)));
    },

    async setDefaultDeviceProfile(request, reply) {
      return reply.code(200).send(profileJson(await store.write(runMakeDefault, idOf(request.params))));
    },
  };
}

/** The profiles among the comma-separated ids that exist (ThingsBoard skips the others). */
function infosByIds(store: Store, ids: string) {
  return uuidList(ids).flatMap((id) => {
    const profile = store.profileById(id);
    return profile ? [profileInfoJson(profile)] : [];
  });
}
