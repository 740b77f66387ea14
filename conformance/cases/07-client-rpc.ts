// Operation 7: POST /api/v1/{token}/rpc (device-side RPC, answered by a rule on the server).
import type { Case, CaseRun } from '../case.js';
import { bodyEquals, checkAll, isObject, isTrue, mediaTypeIs, statusIs } from '../checks.js';
import { jsonOfSize, RPC_PAYLOAD_LIMIT } from './06-rpc-reply.js';
import { json, op, raw } from './kit.js';
import { invalidInput, TB_500 } from './patterns.js';

const NO_RULES = 'the server has no /api/dhi/rules (a real ThingsBoard needs an "RPC Call Reply" rule node instead)';

/** A rule for a method of this case only; skips the case when the server cannot set rules. */
async function ruleFor(t: CaseRun, rule: { type: 'static'; reply: unknown } | { type: 'echo' }): Promise<string> {
  const method = `${t.unique}-${rule.type}`;
  if (!(await t.control.setRule(method, rule))) t.skip(NO_RULES);
  return method;
}

export const clientRpcCases: Case[] = [
  {
    id: '7.1.1',
    title: 'the reply produced by the rule is returned as JSON',
    requirement: 'A rule node on the server handles the request and produces the reply, a valid JSON document (specification, operation 7).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const reply = { answer: 42, nested: { ok: true, list: ['a', 1] } };
      const method = await ruleFor(t, { type: 'static', reply });
      const answer = await t.device(op.clientRpc(t.devices[0].token, json({ method, params: {} })));
      t.expect(...checkAll(answer, statusIs(200), mediaTypeIs('application/json'), bodyEquals(reply)));
    },
  },
  {
    id: '7.1.2',
    title: 'the request\'s params reach the rule (echo)',
    requirement: 'The request {method, params} is handed to the rule node that handles it (specification, operation 7).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const params = { temperature: 21.5, tags: ['x', 'y'], deep: { a: { b: null } } };
      const method = await ruleFor(t, { type: 'echo' });
      const answer = await t.device(op.clientRpc(t.devices[0].token, json({ method, params })));
      t.expect(...checkAll(answer, statusIs(200), bodyEquals(params)));
    },
  },
  {
    id: '7.6.1',
    title: 'built-in getCurrentTime answers {time} with the server clock',
    requirement: 'dhi\'s reference server answers getCurrentTime with {"time": <ms>} (a dhi convenience; ThingsBoard needs a rule chain).',
    severity: 'INFO',
    devices: 1,
    async run(t) {
      const from = Date.now();
      // ThingsBoard without a rule answers only when its 30 s async timeout ends: do not wait for that.
      const answer = await t.device({ ...op.clientRpc(t.devices[0].token, json({ method: 'getCurrentTime', params: {} })), deadlineMs: 5000 });
      const to = Date.now();
      const time = isObject(answer.json) ? answer.json.time : undefined;
      t.expect(statusIs(200)(answer), isTrue('timeInWindow', typeof time === 'number' && time >= from - 1000 && time <= to + 1000, `a time in [${from - 1000}, ${to + 1000}]`, time));
    },
  },
  invalidInput({ id: '7.2.1', title: 'malformed JSON is 400', thingsboard: TB_500, request: (k) => op.clientRpc(k, raw('{"method": "x", ')) }),
  invalidInput({ id: '7.2.2', title: 'a request without method is 400', thingsboard: TB_500, request: (k) => op.clientRpc(k, json({ params: {} })) }),
  invalidInput({ id: '7.2.3', title: 'an array is 400', thingsboard: TB_500, request: (k) => op.clientRpc(k, json([{ method: 'x', params: {} }])) }),
  invalidInput({
    id: '7.2.4',
    title: 'a request without params is 400',
    requirement: 'The body is an object with method (string) and params (object) (specification, operation 7); a body of another shape is invalid (400).',
    thingsboard: TB_500,
    request: (k) => op.clientRpc(k, json({ method: 'getCurrentTime' })),
  }),
  {
    id: '7.5.1',
    title: `a request larger than ${RPC_PAYLOAD_LIMIT} bytes is 413`,
    requirement: `ThingsBoard rejects a body above the payload limit of /api/v1/*/rpc/** (${RPC_PAYLOAD_LIMIT} bytes by default) with 413.`,
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const body = `{"method":"echo","params":${jsonOfSize(RPC_PAYLOAD_LIMIT)}}`;
      t.expect(statusIs(413)(await t.device(op.clientRpc(t.devices[0].token, raw(body)))));
    },
  },
];
