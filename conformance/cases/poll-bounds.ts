// Long polls (operations 4 and 5) held to both bounds of their timeout, with the empty timeout
// answer; and an update that carries the changed keys only.
import type { Case, DeviceRequest } from '../case.js';
import { bodyEquals, bodyIsEmpty, checkAll, isTrue, statusIs } from '../checks.js';
import { changeDuringPoll, DELIVERY_TIMEOUT_MS, notBeforeChange, op, startPoll, unanswered } from './kit.js';

/** A quiet poll asks for this timeout and must still be open this much earlier. */
export const BOUNDED_TIMEOUT_MS = 1500;
const STILL_OPEN_AT_MS = 1000;

function boundedPoll(id: string, what: string, request: (token: string, timeout: number) => DeviceRequest): Case {
  return {
    id,
    title: `a quiet ${what} stays open for its timeout, then ends 408 with an empty body`,
    requirement: `A response arrives when the timeout elapses (specification, rule 3): not ${BOUNDED_TIMEOUT_MS - STILL_OPEN_AT_MS} ms or more before it; the timeout answer is 408 with no body (the document's PollTimeout).`,
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const poll = startPoll(t, request(t.devices[0].token, BOUNDED_TIMEOUT_MS));
      await t.wait(STILL_OPEN_AT_MS);
      const early = poll.pending() ? undefined : await poll.result;
      t.expect(isTrue('openUntilTimeout', early === undefined, `still open ${STILL_OPEN_AT_MS} ms into a timeout of ${BOUNDED_TIMEOUT_MS} ms`, `answered ${early?.reply?.status ?? early?.failed?.message} before ${STILL_OPEN_AT_MS} ms`));
      const result = await poll.result;
      if (!result.reply) return t.expect(unanswered(result, `a poll with timeout=${BOUNDED_TIMEOUT_MS}`));
      t.expect(...checkAll(result.reply, statusIs(408), bodyIsEmpty()));
    },
  };
}

export const pollBoundCases: Case[] = [
  {
    id: '4.1.2',
    title: 'an update carries the changed keys only, not the whole shared state',
    requirement: 'The poll is answered with the key-value pairs of the changed shared attributes (specification, operation 4 and Events): unchanged shared keys are not sent.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      await t.control.setAttributes(d.id, 'SHARED_SCOPE', { unchanged1: 'a', unchanged2: 2, changing: 0 });
      let change: Record<string, unknown> = {};
      const result = await changeDuringPoll(t, op.attributeUpdates(d.token, DELIVERY_TIMEOUT_MS), (attempt) =>
        t.control.setAttributes(d.id, 'SHARED_SCOPE', (change = { changing: attempt })),
      );
      if (!result.reply) return t.expect(unanswered(result, 'a poll during a change'));
      t.expect(notBeforeChange(result), statusIs(200)(result.reply), bodyEquals(change)(result.reply));
    },
  },
  boundedPoll('4.5.2', 'attribute update poll', op.attributeUpdates),
  boundedPoll('5.5.2', 'RPC poll', op.rpcPoll),
];
