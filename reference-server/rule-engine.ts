// Replies to device-side RPC (operation 7). ThingsBoard routes these through a rule chain; dhi has
// two built-in rules and static or echo rules set at runtime (control API /api/dhi/rules).
import type { JsonValue, RuleRecord, Store } from './store/types.js';

export interface RuleEngine {
  /** The reply for a method, or undefined when no rule handles it (the caller then waits and 503s). */
  reply(method: string, params: JsonValue): { value: JsonValue } | undefined;
  /** Stored rules plus the built-ins they do not override. */
  list(): (RuleRecord | { method: string; type: 'builtin' })[];
}

const BUILT_IN: Record<string, (params: JsonValue) => JsonValue> = {
  getCurrentTime: () => ({ time: Date.now() }),
  echo: (params) => params,
};

export function createRuleEngine(store: Store): RuleEngine {
  return {
    reply(method, params) {
      const rule = store.rule(method);
      if (rule) return { value: rule.type === 'echo' ? params : rule.reply };
      const builtIn = Object.hasOwn(BUILT_IN, method) ? BUILT_IN[method] : undefined;
      return builtIn && { value: builtIn(params) };
    },
    list() {
      const stored = store.listRules();
      const overridden = new Set(stored.map((r) => r.method));
      const builtIns = Object.keys(BUILT_IN)
        .filter((method) => !overridden.has(method))
        .map((method) => ({ method, type: 'builtin' as const }));
      return [...stored, ...builtIns].sort((a, b) => a.method.localeCompare(b.method));
    },
  };
}
