// Replies to device-side RPC (operation 7). ThingsBoard routes these through a rule chain; dhi has
// two built-in rules and static or echo rules set at runtime (control API /api/dhi/rules).
import type { RuleRecord, Store } from './store/types.js';

export interface RuleEngine {
  /**
   * The reply (JSON text) for a method given its params (JSON text, numbers as the device sent
   * them, so an echo keeps 1.0), or undefined when no rule handles it (the caller waits and 503s).
   */
  reply(method: string, params: string): string | undefined;
  /** Stored rules plus the built-ins they do not override. */
  list(): (RuleRecord | { method: string; type: 'builtin' })[];
}

const BUILT_IN: Record<string, (params: string) => string> = {
  getCurrentTime: () => `{"time":${Date.now()}}`,
  echo: (params) => params,
};

export function createRuleEngine(store: Store): RuleEngine {
  return {
    reply(method, params) {
      const rule = store.rule(method);
      if (rule) return rule.type === 'echo' ? params : JSON.stringify(rule.reply);
      const builtIn = Object.hasOwn(BUILT_IN, method) ? BUILT_IN[method] : undefined;
      return builtIn?.(params);
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
