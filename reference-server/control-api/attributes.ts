// Attributes through ThingsBoard's TelemetryController: set shared/server attributes (v2 and v1
// paths, and the older form without the entity type), delete, read one scope or all of them as
// [{key, value, lastUpdateTs}]. Values keep their JSON types (no numeric-string casting: that is a
// device transport setting).
import { appendEntries } from '../kv-values.js';
import { badRequest } from '../errors.js';
import { validatedDevice } from './entities.js';
import { requestKeys } from './request-keys.js';
import type { ServerContext } from '../context.js';
import { sendJsonText, type Handler, type Handlers } from '../handler.js';
import { attributeListJson } from '../kv-json.js';
import type { KvEntry, Scope } from '../store/types.js';

interface DevicePath {
  deviceId: string;
  scope: Scope;
}

/** ThingsBoard's AttributeScope order, in which it reads every scope. */
const ALL_SCOPES: Scope[] = ['CLIENT_SCOPE', 'SERVER_SCOPE', 'SHARED_SCOPE'];

interface KeysQuery {
  keys?: string;
  key?: string[];
}

/** The keys of an attribute read (all when none); a blank one is refused as BaseAttributesService refuses it. */
function readKeys(query: KeysQuery): string[] | undefined {
  const keys = requestKeys(query);
  const blank = keys.find((k) => k.trim() === '');
  if (blank !== undefined) throw badRequest(`Incorrect attribute key ${blank}`);
  return keys.length > 0 ? keys : undefined;
}

export function attributeHandlers({ store, attributes }: ServerContext): Handlers {
  const save: Handler = async (request, reply) => {
    const { deviceId, scope } = request.params as DevicePath;
    validatedDevice(store, deviceId);
    const entries: KvEntry[] = [];
    appendEntries(request.body as Record<string, unknown>, Date.now(), false, entries);
    if (entries.length === 0) throw badRequest('No attributes data found in request body!');
    if (entries.some((e) => e.key.trim() === '')) throw badRequest('Key cannot be empty or contains only spaces');
    await attributes.save(deviceId, scope, entries);
    return reply.code(200).send();
  };

  const remove: Handler = async (request, reply) => {
    const { deviceId, scope } = request.params as DevicePath;
    const keys = requestKeys(request.query as KeysQuery);
    if (keys.length === 0) throw badRequest('Empty keys: []');
    validatedDevice(store, deviceId);
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
      const { deviceId, scope } = request.params as DevicePath;
      validatedDevice(store, deviceId);
      const keys = readKeys(request.query as KeysQuery);
      return sendJsonText(reply, 200, attributeListJson(store.attributes(deviceId, scope, keys)));
    },

    getAllDeviceAttributes(request, reply) {
      const { deviceId } = request.params as DevicePath;
      validatedDevice(store, deviceId);
      const keys = readKeys(request.query as KeysQuery);
      return sendJsonText(reply, 200, attributeListJson(ALL_SCOPES.flatMap((scope) => store.attributes(deviceId, scope, keys))));
    },
  };
}
