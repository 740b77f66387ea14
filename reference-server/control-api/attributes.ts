// Attributes through ThingsBoard's TelemetryController: set shared/server attributes (v2 and v1
// paths, and the older form without the entity type), delete, read one scope or all of them as
// [{key, value, lastUpdateTs}]. Values keep their JSON types (no numeric-string casting: that is a
// device transport setting).
import { appendEntries } from '../kv-values.js';
import { badRequest } from '../errors.js';
import { entityRef, telemetryDevice } from './telemetry-entity.js';
import { requestKeys } from './request-keys.js';
import type { ServerContext } from '../context.js';
import { sendJsonText, type Handler, type Handlers } from '../handler.js';
import { attributeListJson } from '../kv-json.js';
import type { KvEntry, Scope } from '../store/types.js';

/** ThingsBoard's AttributeScope order, in which it reads every scope. */
const ALL_SCOPES: Scope[] = ['CLIENT_SCOPE', 'SERVER_SCOPE', 'SHARED_SCOPE'];


/** The keys of an attribute read (all when none); a blank one is refused as BaseAttributesService refuses it. */
function checkedKeys(keys: string[]): string[] | undefined {
  const blank = keys.find((k) => k.trim() === '');
  if (blank !== undefined) throw badRequest(`Incorrect attribute key ${blank}`);
  return keys.length > 0 ? keys : undefined;
}

export function attributeHandlers({ store, attributes }: ServerContext): Handlers {
  const save: Handler<'saveDeviceAttributes' | 'saveDeviceAttributesV1' | 'saveDeviceAttributesByDeviceId'> = async (request, reply) => {
    const { scope } = request.params;
    const ref = entityRef(request.params);
    const entries: KvEntry[] = [];
    appendEntries(request.body, Date.now(), false, entries);
    if (entries.length === 0) throw badRequest('No attributes data found in request body!');
    if (entries.some((e) => e.key.trim() === '')) throw badRequest('Key cannot be blank');
    const { id } = telemetryDevice(store, ref, 'WRITE_ATTRIBUTES');
    await attributes.save(id, scope, entries);
    return reply.code(200).send();
  };

  const remove: Handler<'deleteDeviceAttributes' | 'deleteDeviceAttributesByDeviceId'> = async (request, reply) => {
    const { scope } = request.params;
    const keys = requestKeys(request.query);
    const ref = entityRef(request.params);
    if (keys.length === 0) throw badRequest('Empty keys: []');
    const { id } = telemetryDevice(store, ref, 'WRITE_ATTRIBUTES');
    await attributes.remove(id, scope, keys);
    return reply.code(200).send();
  };

  return {
    saveDeviceAttributes: save,
    saveDeviceAttributesV1: save,
    saveDeviceAttributesByDeviceId: save,
    deleteDeviceAttributes: remove,
    deleteDeviceAttributesByDeviceId: remove,

    getDeviceAttributes(request, reply) {
      const { scope } = request.params;
      const requested = requestKeys(request.query);
      const { id } = telemetryDevice(store, entityRef(request.params), 'READ_ATTRIBUTES');
      return sendJsonText(reply, 200, attributeListJson(store.attributes(id, scope, checkedKeys(requested))));
    },

    getAllDeviceAttributes(request, reply) {
      const requested = requestKeys(request.query);
      const { id } = telemetryDevice(store, entityRef(request.params), 'READ_ATTRIBUTES');
      const keys = checkedKeys(requested);
      return sendJsonText(reply, 200, attributeListJson(ALL_SCOPES.flatMap((scope) => store.attributes(id, scope, keys))));
    },
  };
}
