// Operations 2 (client attributes upload), 3 (attributes read) and 4 (shared attribute long poll).
import { appendEntries, toObject } from '../kv-values.js';
import { pollTimeout } from './poll-timeout.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { JsonValue, KvEntry } from '../store/types.js';

/** `a,b` and repeated parameters alike; undefined when the parameter is absent or empty. */
function keyList(values: string[] | undefined): string[] | undefined {
  if (!values) return undefined;
  const keys: string[] = [];
  for (const value of values) {
    for (const key of value.split(',')) {
      const trimmed = key.trim();
      if (trimmed) keys.push(trimmed);
    }
  }
  return keys.length > 0 ? keys : undefined;
}

export function attributeHandlers({ store, config, polls }: ServerContext): Handlers {
  const upsertClient = (batch: { deviceId: string; entries: KvEntry[] }) =>
    store.upsertAttributes(batch.deviceId, 'CLIENT_SCOPE', batch.entries);
  return {
    async postAttributes(request, reply) {
      const entries: KvEntry[] = [];
      appendEntries(request.body as Record<string, unknown>, Date.now(), config.typeCast, entries);
      if (entries.length > 0) await store.write(upsertClient, { deviceId: request.device.id, entries });
      return reply.code(200).send();
    },

    getAttributes(request, reply) {
      const query = request.query as { clientKeys?: string[]; sharedKeys?: string[] };
      const clientKeys = keyList(query.clientKeys);
      const sharedKeys = keyList(query.sharedKeys);
      const everything = !clientKeys && !sharedKeys;
      const result: { client?: Record<string, JsonValue>; shared?: Record<string, JsonValue> } = {};
      if (everything || clientKeys) {
        const found = store.attributes(request.device.id, 'CLIENT_SCOPE', clientKeys);
        if (found.length > 0) result.client = toObject(found);
      }
      if (everything || sharedKeys) {
        const found = store.attributes(request.device.id, 'SHARED_SCOPE', sharedKeys);
        if (found.length > 0) result.shared = toObject(found);
      }
      return reply.code(200).send(result);
    },

    subscribeAttributes(request, reply) {
      polls.wait('attributes', request.device.id, reply, pollTimeout(request, config));
      return reply;
    },
  };
}
