// Operations 2 (client attributes upload), 3 (attributes read) and 4 (shared attribute long poll).
import { appendEntries } from '../kv-values.js';
import { entriesJson } from '../kv-json.js';
import { sendJsonText, type Handlers } from '../handler.js';
import { pollTimeout } from './poll-timeout.js';
import type { ServerContext } from '../context.js';
import type { KvEntry } from '../store/types.js';

/**
 * A key list as ThingsBoard reads it: Spring joins repeated parameters with commas, then Java's
 * String.split(",") cuts it: no trimming (` b` is the key " b"), empty items kept except trailing
 * ones. No key at all (absent, empty, only commas) means the parameter is absent.
 */
function keyList(values: string[] | undefined): string[] | undefined {
  if (!values) return undefined;
  const keys = values.join(',').split(',');
  while (keys.length > 0 && keys[keys.length - 1] === '') keys.pop();
  return keys.length > 0 ? keys : undefined;
}

export function attributeHandlers({ store, config, polls }: ServerContext): Handlers {
  const upsertClient = (batch: { deviceId: string; entries: KvEntry[] }) =>
    store.upsertAttributes(batch.deviceId, 'CLIENT_SCOPE', batch.entries);
  return {
    async postAttributes(request, reply) {
      const entries: KvEntry[] = [];
      appendEntries(request.body, Date.now(), config.typeCast, entries);
      if (entries.length > 0) await store.write(upsertClient, { deviceId: request.device.id, entries });
      return reply.code(200).send();
    },

    getAttributes(request, reply) {
      const { query } = request;
      const clientKeys = keyList(query.clientKeys);
      const sharedKeys = keyList(query.sharedKeys);
      const everything = !clientKeys && !sharedKeys;
      const client = everything || clientKeys ? store.attributes(request.device.id, 'CLIENT_SCOPE', clientKeys) : [];
      const shared = everything || sharedKeys ? store.attributes(request.device.id, 'SHARED_SCOPE', sharedKeys) : [];
      // Empty groups are left out, as ThingsBoard does.
      let body = '{';
      if (client.length > 0) body += `"client":${entriesJson(client)}`;
      if (shared.length > 0) body += `${client.length > 0 ? ',' : ''}"shared":${entriesJson(shared)}`;
      return sendJsonText(reply, 200, `${body}}`);
    },

    subscribeAttributes(request, reply) {
      polls.wait('attributes', request.device.id, reply, pollTimeout(request.query.timeout, config));
      // Nothing returned: the reply is sent later, and a returned reply would make Fastify watch
      // its end with listeners and closures (reply.then) on every poll.
    },
  };
}
