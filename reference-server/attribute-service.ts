// Server-side attribute writes (control API, OTA assignment). A shared change or delete reaches the
// device's open attribute polls as the flat object of changed keys, or `{deleted: [...]}`; a change
// of the server attribute inactivityTimeout reaches the device state (ThingsBoard's
// DefaultTelemetrySubscriptionService does the same).
import { entriesJson } from './kv-json.js';
import { INACTIVITY_TIMEOUT, type DeviceState } from './device-state.js';
import type { LongPolls } from './long-poll.js';
import type { KvEntry, Scope, Store } from './store/types.js';

export interface AttributeService {
  save(deviceId: string, scope: Scope, entries: KvEntry[]): Promise<void>;
  /** Returns the keys that existed. */
  remove(deviceId: string, scope: Scope, keys: string[]): Promise<string[]>;
}

export function createAttributeService(store: Store, polls: LongPolls, state: DeviceState): AttributeService {
  return {
    async save(deviceId, scope, entries) {
      if (entries.length === 0) return;
      await store.write(() => store.upsertAttributes(deviceId, scope, entries));
      if (scope === 'SHARED_SCOPE') polls.publish(deviceId, entriesJson(entries));
      if (scope === 'SERVER_SCOPE') {
        // The last one of the key wins, as it does in the store.
        const timeout = entries.findLast((e) => e.key === INACTIVITY_TIMEOUT);
        if (timeout) state.timeoutChanged(deviceId, timeout);
      }
    },
    async remove(deviceId, scope, keys) {
      const deleted = await store.write(() => store.deleteAttributes(deviceId, scope, keys));
      if (scope === 'SHARED_SCOPE' && deleted.length > 0) polls.publish(deviceId, JSON.stringify({ deleted }));
      if (scope === 'SERVER_SCOPE' && deleted.includes(INACTIVITY_TIMEOUT)) state.timeoutChanged(deviceId, undefined);
      return deleted;
    },
  };
}
