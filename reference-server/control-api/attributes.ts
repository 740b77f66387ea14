// Attributes through ThingsBoard's TelemetryController: set shared/server attributes (v2 and v1
// paths, and the older form without the entity type), delete, read one scope or all of them as
// [{key, value, lastUpdateTs}]. Values keep their JSON types (no numeric-string casting: that is a
// device transport setting).
import { appendEntries } from '../kv-values.js';
import { badRequest } from '../errors.js';
import { validatedDevice } from './entities.js';
import type { ServerContext } from '../context.js';
import { sendJsonText, type Handler, type Handlers } from '../handler.js';
import { attributeListJson } from '../kv-json.js';
import type { KvEntry, Scope } from '../store/types.js';

/** ThingsBoard's AttributeScope order, in which it reads every scope. */
const ALL_SCOPES: Scope[] = ['CLIENT_SCOPE', 'SERVER_SCOPE', 'SHARED_SCOPE'];


export const splitKeys = (keys: string | undefined): string[] | undefined =>
  keys === undefined ? undefined : keys.split(',').map((k) => k.trim()).filter((k) => k !== '');

export function attributeHandlers({ store, attributes }: ServerContext): Handlers {
  const save: Handler<'saveDeviceAttributes' | 'saveDeviceAttributesV1' | 'saveDeviceAttributesByDeviceId'> = async (request, reply) => {
    const { deviceId, scope } = request.params;
    validatedDevice(store, deviceId);
    const entries: KvEntry[] = [];
    appendEntries(request.body, Date.now(), false, entries);
    if (entries.length === 0) throw badRequest('No attributes data found in request body!');
    if (entries.some((e) => e.key.trim() === '')) throw badRequest('Key cannot be empty or contains only spaces');
    await attributes.save(deviceId, scope, entries);
    return reply.code(200).send();
  };

  const remove: Handler<'deleteDeviceAttributes' | 'deleteDeviceAttributesByDeviceId'> = async (request, reply) => {
    const { deviceId, scope } = request.params;
    validatedDevice(store, deviceId);
    const keys = splitKeys(request.query.keys) ?? [];
    if (keys.length === 0) throw badRequest('Empty keys: keys');
    await attributes.remove(deviceId, scope, keys);
    return reply.code(200).send();
  };

  return {
    saveDeviceAttributes: save,
    saveDeviceAttributesV1: save,
    saveDeviceAttributesByDeviceId: save,
    deleteDeviceAttributes: remove,
    deleteDeviceAttributesByDeviceId: remove,

    getDeviceAttributes(request, reply) {
      const { deviceId, scope } = request.params;
      validatedDevice(store, deviceId);
      const keys = splitKeys(request.query.keys);
      const found = store.attributes(deviceId, scope, keys?.length ? keys : undefined);
      return sendJsonText(reply, 200, attributeListJson(found));
    },

    getAllDeviceAttributes(request, reply) {
      const { deviceId } = request.params;
      validatedDevice(store, deviceId);
      const keys = splitKeys(request.query.keys);
      const found = ALL_SCOPES.flatMap((scope) => store.attributes(deviceId, scope, keys?.length ? keys : undefined));
      return sendJsonText(reply, 200, attributeListJson(found));
    },
  };
}
