// /api/dhi/rules (dhi extension, not ThingsBoard): the replies to device-side RPC (operation 7),
// static JSON or an echo of the params, by method. The built-in rules are listed too.
import { notFound } from '../errors.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { JsonValue, RuleRecord } from '../store/types.js';

const ruleJson = (r: RuleRecord) => (r.type === 'echo' ? { method: r.method, type: r.type } : r);

export function ruleHandlers({ store, rules }: ServerContext): Handlers {
  return {
    listRules(_request, reply) {
      return reply.code(200).send(rules.list().map((r) => ('reply' in r ? ruleJson(r) : r)));
    },

    async setRule(request, reply) {
      const { method } = request.params;
      const input = request.body;
      // A parsed body: the reply is JSON (the contract types any JSON as unknown).
      const rule: RuleRecord = { method, type: input.type, reply: input.type === 'static' ? (input.reply as JsonValue) : null };
      await store.write(() => store.setRule(rule));
      return reply.code(200).send(ruleJson(rule));
    },

    async deleteRule(request, reply) {
      const { method } = request.params;
      if (!(await store.write(() => store.deleteRule(method)))) throw notFound(`No rule for method ${method}`);
      return reply.code(200).send();
    },
  };
}
