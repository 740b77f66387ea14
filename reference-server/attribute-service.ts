// Server-side attribute writes (control API, OTA assignment). A shared change or delete reaches the
// device's open attribute polls as the flat object of changed keys, or `{deleted: [...]}`.
import { entriesJson } from './kv-json.js';
import type { LongPolls } from './long-poll.js';
import type { KvEntry, Scope, Store } from './store/types.js';

export interface AttributeService {
  save(deviceId: string, scope: Scope, entries: KvEntry[]): Promise<void>;
  /** Returns the keys that existed. */
  remove(deviceId: string, scope: Scope, keys: string[]): Promise<string[]>;
}

export function createAttributeService(store: Store, polls: LongPolls): AttributeService {
  return {
    async save(deviceId, scope, entries) {
      if (entries.length === 0) return;
      await store.write(() => store.upsertAttributes(deviceId, scope, entries));
      if (scope === 'SHARED_SCOPE') polls.publish(deviceId, entriesJson(entries));
    },
    async remove(deviceId, scope, keys) {
      const deleted = await store.write(() => store.deleteAttributes(deviceId, scope, keys));
      if (scope === 'SHARED_SCOPE' && deleted.length > 0) polls.publish(deviceId, JSON.stringify({ deleted }));
      return deleted;
    },
  };
}
