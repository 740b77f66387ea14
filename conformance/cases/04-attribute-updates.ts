// Operation 4: GET /api/v1/{token}/attributes/updates?timeout=.. (long poll for shared changes).
import type { Case } from '../case.js';
import type { Failure } from '../verdict.js';
import { bodyEquals, bodyHasEntries, bodyIsEmpty, bodyLacksKeys, checkAll, numberTextIs, statusIs, statusIsSuccess } from '../checks.js';
import { changeDuringPoll, DELIVERY_TIMEOUT_MS, json, notBeforeChange, op, QUIET_TIMEOUT_MS, startPoll, unanswered, type PollResult } from './kit.js';
import { deletedDuringPoll, invalidInput, unboundTimeout } from './patterns.js';

/** The poll got an answer and it is an update (not the timeout answer). */
function delivered(result: PollResult & { answeredBeforeChange: boolean }, expected: Record<string, unknown>): (Failure | undefined)[] {
  if (!result.reply) return [unanswered(result, 'a poll during a change')];
  return [notBeforeChange(result), statusIsSuccess()(result.reply), bodyHasEntries(expected)(result.reply), bodyLacksKeys(['shared', 'client'])(result.reply)];
}

export const attributeUpdateCases: Case[] = [
  {
    id: '4.1.1',
    title: 'a shared change reaches the open poll as a flat object',
    requirement: 'When a server-side component changes a shared attribute, the open poll is answered with the JSON object of the changed key-value pairs (specification, operation 4 and Events); flat, not wrapped in shared.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      let values: Record<string, unknown> = {};
      const result = await changeDuringPoll(t, op.attributeUpdates(d.token, DELIVERY_TIMEOUT_MS), (attempt) =>
        t.control.setAttributes(d.id, 'SHARED_SCOPE', (values = { targetTemperature: 20 + attempt / 2, mode: `eco${attempt}` })),
      );
      t.expect(...delivered(result, values));
    },
  },
  {
    id: '4.6.1',
    title: 'a deleted shared key reaches the open poll under deleted',
    requirement: 'ThingsBoard answers the poll with {"deleted": [keys]} when shared attributes are removed.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      // One key per attempt, set beforehand: the delete is the only event the poll sees.
      await t.control.setAttributes(d.id, 'SHARED_SCOPE', { gone1: 1, gone2: 2, gone3: 3 });
      let key = '';
      const result = await changeDuringPoll(t, op.attributeUpdates(d.token, DELIVERY_TIMEOUT_MS), (attempt) =>
        t.control.deleteAttributes(d.id, 'SHARED_SCOPE', [(key = `gone${attempt}`)]),
      );
      if (!result.reply) return t.expect(unanswered(result, 'a poll during a delete'));
      t.expect(notBeforeChange(result), ...checkAll(result.reply, statusIs(200), bodyEquals({ deleted: [key] })));
    },
  },
  {
    id: '4.6.2',
    title: 'a client attribute change does not answer the poll',
    requirement: 'Only shared attribute changes are delivered (specification, operation 4: changed shared attributes; ThingsBoard pushes SHARED_SCOPE only).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const result = await changeDuringPoll(t, op.attributeUpdates(d.token, QUIET_TIMEOUT_MS), () => t.device(op.postAttributes(d.token, json({ clientSide: 1 }))), 1);
      if (!result.reply) return t.expect(unanswered(result, 'a quiet poll'));
      t.expect(notBeforeChange(result), statusIs(408)(result.reply));
    },
  },
  {
    id: '4.6.3',
    title: 'a server-scope attribute change does not answer the poll',
    requirement: 'Server-side attributes are not readable by the device; ThingsBoard pushes SHARED_SCOPE changes only.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const result = await changeDuringPoll(t, op.attributeUpdates(d.token, QUIET_TIMEOUT_MS), () => t.control.setAttributes(d.id, 'SERVER_SCOPE', { serverSide: 1 }), 1);
      if (!result.reply) return t.expect(unanswered(result, 'a quiet poll'));
      t.expect(notBeforeChange(result), statusIs(408)(result.reply));
    },
  },
  {
    id: '4.5.1',
    title: 'with no change the poll is answered at its timeout (408), not with an update',
    requirement: 'A response arrives when the timeout elapses (specification, rule 3), as the timeout answer the document gives (408), never as a 2xx update.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const result = await startPoll(t, op.attributeUpdates(t.devices[0].token, QUIET_TIMEOUT_MS)).result;
      if (!result.reply) return t.expect(unanswered(result, `a poll with timeout=${QUIET_TIMEOUT_MS}`));
      t.expect(statusIs(408)(result.reply));
    },
  },
  {
    id: '4.6.4',
    title: 'the timeout answer has an empty body',
    requirement: 'ThingsBoard answers a poll that times out 408 with an empty body; devices treat a 200 with an empty or non-JSON body as fatal.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const result = await startPoll(t, op.attributeUpdates(t.devices[0].token, QUIET_TIMEOUT_MS)).result;
      if (!result.reply) return t.expect(unanswered(result, `a poll with timeout=${QUIET_TIMEOUT_MS}`));
      t.expect(...checkAll(result.reply, statusIs(408), bodyIsEmpty()));
    },
  },
  invalidInput({
    id: '4.2.1',
    title: 'a timeout that is not an integer is 400',
    requirement: 'timeout is an integer in milliseconds; an invalid request parameter is 400 (specification, Limits and Errors).',
    request: (k) => op.attributeUpdates(k, 'soon'),
  }),
  {
    id: '4.6.5',
    title: 'a double set as 42.0 is pushed as 42.0, and a long with every digit',
    requirement: 'ThingsBoard keeps 42.0 a DOUBLE and pushes it as 42.0; longs keep every digit (CoAP attribute update tests compare JSON nodes, where 42.0 and 42 differ).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const result = await changeDuringPoll(t, op.attributeUpdates(d.token, DELIVERY_TIMEOUT_MS), (attempt) =>
        t.control.setAttributes(d.id, 'SHARED_SCOPE', `{"setPoint":42.0,"serial":9007199254740993,"attempt":${attempt}}`),
      );
      if (!result.reply) return t.expect(unanswered(result, 'a poll during a change'));
      t.expect(notBeforeChange(result), ...checkAll(result.reply, statusIs(200), numberTextIs('setPoint', '42.0'), numberTextIs('serial', '9007199254740993')));
    },
  },
  deletedDuringPoll('4.6.6', 'attribute update poll', (token) => op.attributeUpdates(token, DELIVERY_TIMEOUT_MS)),
  unboundTimeout('4.2.2', (token, timeout) => op.attributeUpdates(token, timeout)),
];
