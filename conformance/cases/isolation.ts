// Isolation: one device's token never reads, answers or receives another device's data.
import type { Case } from '../case.js';
import { bodyHasEntries, bodyLacksKeys, isObject, keyNotStored, statusIs, statusIsSuccess, storedValueEquals, valueEquals } from '../checks.js';
import { commandDuringPoll } from './05-rpc-poll.js';
import { DELIVERY_TIMEOUT_MS, expectStored, json, op, QUIET_TIMEOUT_MS, SETTLE_MS, startPoll, unanswered } from './kit.js';

export const isolationCases: Case[] = [
  {
    id: '1.3.3',
    title: 'telemetry sent with one device\'s token is stored for that device only',
    requirement: 'The token in the path identifies the device the data belongs to (specification, Authentication 1-2).',
    severity: 'MUST',
    devices: 2,
    async run(t) {
      const [a, b] = t.devices;
      t.expect(statusIsSuccess()(await t.device(op.telemetry(b.token, json({ onlyB: 1 })))));
      // Absence means something only once the write has landed: wait for it on B, then read A.
      await expectStored(t, () => t.control.getTimeseries(b.id, ['onlyB']), (series) => [storedValueEquals(series, 'onlyB', 1)]);
      t.expect(keyNotStored(await t.control.getTimeseries(a.id, ['onlyB']), 'onlyB'));
    },
  },
  {
    id: '3.3.2',
    title: 'a device does not read another device\'s attributes',
    requirement: 'A device reads its own client-side and shared attributes (specification, operation 3, Authentication 1-2).',
    severity: 'MUST',
    devices: 2,
    async run(t) {
      const [a, b] = t.devices;
      t.expect(statusIsSuccess()(await t.device(op.postAttributes(a.token, json({ secretOfA: 'a' })))));
      await t.control.setAttributes(a.id, 'SHARED_SCOPE', { sharedOfA: 'a' });
      // A reads its own values first, so B's read cannot pass for having come too early.
      const own = await t.device(op.getAttributes(a.token, 'clientKeys=secretOfA&sharedKeys=sharedOfA'));
      t.expect(bodyHasEntries({ secretOfA: 'a' }, 'client')(own));
      const reply = await t.device(op.getAttributes(b.token, 'clientKeys=secretOfA&sharedKeys=sharedOfA'));
      t.expect(statusIsSuccess()(reply), bodyLacksKeys(['secretOfA'], 'client')(reply), bodyLacksKeys(['sharedOfA'], 'shared')(reply));
    },
  },
  {
    id: '4.3.2',
    title: 'a shared change of one device does not answer another device\'s poll',
    requirement: 'An update is delivered to the device whose shared attribute changed (specification, Events).',
    severity: 'MUST',
    devices: 2,
    async run(t) {
      const [a, b] = t.devices;
      // As changeDuringPoll, with the other device's poll open around each attempt.
      for (let attempt = 1; ; attempt++) {
        const pollB = startPoll(t, op.attributeUpdates(b.token, QUIET_TIMEOUT_MS + 500));
        const pollA = startPoll(t, op.attributeUpdates(a.token, DELIVERY_TIMEOUT_MS));
        await t.wait(SETTLE_MS * attempt);
        await t.control.setAttributes(a.id, 'SHARED_SCOPE', { forA: attempt });
        const [ra, rb] = await Promise.all([pollA.result, pollB.result]);
        if (ra.reply?.status === 408 && attempt < 3) continue; // the change raced A's poll
        if (!rb.reply) return t.expect(unanswered(rb, "the other device's poll"));
        return t.expect(statusIs(408)(rb.reply), ra.reply ? statusIs(200)(ra.reply) : unanswered(ra, "the changed device's poll"));
      }
    },
  },
  {
    id: '5.3.2',
    title: 'a command for one device is not delivered to another device\'s poll',
    requirement: 'A server-side RPC command is delivered to the device it was issued for (specification, Events).',
    severity: 'MUST',
    devices: 2,
    async run(t) {
      const [a, b] = t.devices;
      const pollB = startPoll(t, op.rpcPoll(b.token, QUIET_TIMEOUT_MS + 500));
      const result = await commandDuringPoll(t, a, { method: 'forA', params: {} }, 'oneway');
      const rb = await pollB.result;
      if (!rb.reply) return t.expect(unanswered(rb, 'the other device\'s poll'));
      t.expect(statusIs(408)(rb.reply), result.reply ? statusIs(200)(result.reply) : unanswered(result, 'the addressed device\'s poll'));
      await result.rest;
    },
  },
  {
    id: '6.3.2',
    title: 'another device cannot answer a device\'s command',
    requirement: 'The reply at rpc/<id> answers the command with that id of the device whose token is in the path (specification, rule 5, Authentication 2).',
    severity: 'MUST',
    devices: 2,
    async run(t) {
      const [a, b] = t.devices;
      const result = await commandDuringPoll(t, a, { method: 'askA', params: {} }, 'twoway');
      const id = isObject(result.reply?.json) ? result.reply.json.id : undefined;
      if (result.reply?.status !== 200 || id === undefined) return t.expect(unanswered(result, 'the poll') ?? statusIs(200)(result.reply!));
      await t.device(op.rpcReply(b.token, id as number, json({ from: 'B' })));
      t.expect(statusIsSuccess()(await t.device(op.rpcReply(a.token, id as number, json({ from: 'A' })))));
      const rest = await result.rest;
      t.expect(statusIs(200)(rest), valueEquals('replyIsFromTheAddressedDevice', rest.json, { from: 'A' }));
    },
  },
];
