// Server-side RPC routing (operations 5 and 6): a queued command answers the next poll at once
// (and leaves no trace that takes the next one), each command reaches exactly one poll once, and
// each reply reaches the caller of its own id only.
import type { Case, CaseRun } from '../case.js';
import type { DeviceFixture } from '../control/devices.js';
import type { Failure } from '../verdict.js';
import type { Reply } from '../client.js';
import { isObject, isTrue, valueEquals } from '../checks.js';
import { commandDuringPoll, deliveredCommand, RPC_TIMEOUT_MS } from './05-rpc-poll.js';
import { DELIVERY_TIMEOUT_MS, json, notBeforeChange, op, QUIET_TIMEOUT_MS, SETTLE_MS, startPoll, unanswered } from './kit.js';

/** A poll with this timeout that holds a queued command must be answered well before it ends. */
const LONG_TIMEOUT_MS = 4000;
const AT_ONCE_MS = 1000;

interface Delivered {
  id?: number | string;
  rest: Promise<Reply>;
  failures: (Failure | undefined)[];
}

/** Issues a command during an open poll; its delivered id, or the failures when it was not delivered. */
async function deliver(t: CaseRun, d: DeviceFixture, method: string, direction: 'oneway' | 'twoway'): Promise<Delivered> {
  const command = { method, params: { method } };
  const result = await commandDuringPoll(t, d, command, direction);
  const failures = [notBeforeChange(result), ...deliveredCommand(result, command)];
  const body = result.reply?.json;
  return { id: failures.some(Boolean) || !isObject(body) ? undefined : (body.id as number | string), rest: result.rest, failures };
}

/** The REST caller of a two-way command got exactly this reply. */
async function callerGot(check: string, rest: Promise<Reply>, expected: unknown): Promise<Failure | undefined> {
  const reply = await rest;
  return valueEquals(check, { status: reply.status, reply: reply.json ?? reply.text }, { status: 200, reply: expected });
}

export const rpcRoutingCases: Case[] = [
  {
    id: '5.1.2',
    title: 'a command issued while no poll is open answers the next poll at once',
    requirement: `A poll is answered when a request occurs (specification, rule 3): a command already waiting for the device is not held until the poll's timeout (answered within ${AT_ONCE_MS} ms of a ${LONG_TIMEOUT_MS} ms poll).`,
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const command = { method: 'queued', params: { n: 1 } };
      const rest = t.control.sendRpc('oneway', d.id, { ...command, timeout: RPC_TIMEOUT_MS });
      await t.wait(SETTLE_MS);
      const poll = startPoll(t, op.rpcPoll(d.token, LONG_TIMEOUT_MS));
      await t.wait(AT_ONCE_MS);
      t.expect(isTrue('answeredAtOnce', !poll.pending(), `the poll answered within ${AT_ONCE_MS} ms`, `still open after ${AT_ONCE_MS} ms`));
      t.expect(...deliveredCommand(await poll.result, command));
      await rest;
    },
  },
  {
    id: '5.1.3',
    title: 'a command is delivered to exactly one of two open polls',
    requirement: 'A command issued for the device answers a poll with that request (specification, Events); one request is one delivery, the other poll times out (408).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const polls = [startPoll(t, op.rpcPoll(d.token, DELIVERY_TIMEOUT_MS)), startPoll(t, op.rpcPoll(d.token, DELIVERY_TIMEOUT_MS))];
      await t.wait(SETTLE_MS);
      const rest = t.control.sendRpc('oneway', d.id, { method: 'once', params: {}, timeout: RPC_TIMEOUT_MS });
      const results = await Promise.all(polls.map((p) => p.result));
      t.expect(...results.map((r, i) => unanswered(r, `poll ${i + 1}`)));
      t.expect(valueEquals('deliveredOnce', results.map((r) => r.reply?.status).sort(), [200, 408]));
      await rest;
    },
  },
  {
    id: '5.1.4',
    title: 'a delivered one-way command is not delivered again',
    requirement: 'A command answers one poll (specification, Events); the next poll, with no new command, is answered at its timeout (408).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const first = await deliver(t, d, 'onlyOnce', 'oneway');
      if (first.id === undefined) return t.expect(...first.failures);
      const again = await startPoll(t, op.rpcPoll(d.token, QUIET_TIMEOUT_MS)).result;
      if (!again.reply) return t.expect(unanswered(again, 'the next poll'));
      t.expect(isTrue('notDeliveredAgain', again.reply.status === 408, '408 (nothing new)', `${again.reply.status} ${again.reply.text.slice(0, 120)}`));
      await first.rest;
    },
  },
  {
    id: '5.1.5',
    title: 'after a queued command answered a poll at once, the next command reaches the next open poll',
    requirement: 'A command issued while a poll is open answers that poll (specification, Events): a poll answered from the queue leaves nothing behind that could take the next command.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const queued = { method: 'queuedFirst', params: { n: 1 } };
      const rest = t.control.sendRpc('oneway', d.id, { ...queued, timeout: RPC_TIMEOUT_MS });
      await t.wait(SETTLE_MS);
      t.expect(...deliveredCommand(await startPoll(t, op.rpcPoll(d.token, DELIVERY_TIMEOUT_MS)).result, queued));
      await rest;
      const next = await deliver(t, d, 'afterQueue', 'oneway');
      t.expect(...next.failures);
      await next.rest;
    },
  },
  {
    id: '6.1.2',
    title: 'two commands outstanding at once: each reply reaches its own caller',
    requirement: 'The reply at rpc/<id> answers the request with that integer id (specification, rule 5): commands carry distinct ids and replies are not crossed.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const a = await deliver(t, d, 'first', 'twoway');
      const b = await deliver(t, d, 'second', 'twoway');
      if (a.id === undefined || b.id === undefined) return t.expect(...a.failures, ...b.failures);
      t.expect(isTrue('idsDiffer', Number(a.id) !== Number(b.id), 'two different ids', [a.id, b.id]));
      await t.device(op.rpcReply(d.token, a.id, json({ for: 'first' })));
      await t.device(op.rpcReply(d.token, b.id, json({ for: 'second' })));
      t.expect(await callerGot('firstCallerGotItsReply', a.rest, { for: 'first' }), await callerGot('secondCallerGotItsReply', b.rest, { for: 'second' }));
    },
  },
  {
    id: '6.1.3',
    title: 'a second reply to an answered id reaches no other caller',
    requirement: 'A reply answers the request with its id (specification, rule 5): a repeated reply to an answered request is not delivered to a later command.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const a = await deliver(t, d, 'answered', 'twoway');
      if (a.id === undefined) return t.expect(...a.failures);
      await t.device(op.rpcReply(d.token, a.id, json({ for: 'answered' })));
      t.expect(await callerGot('firstCallerGotItsReply', a.rest, { for: 'answered' }));
      const b = await deliver(t, d, 'later', 'twoway');
      if (b.id === undefined) return t.expect(...b.failures);
      await t.device(op.rpcReply(d.token, a.id, json({ repeated: true })));
      await t.device(op.rpcReply(d.token, b.id, json({ for: 'later' })));
      t.expect(await callerGot('laterCallerGotItsReply', b.rest, { for: 'later' }));
    },
  },
  {
    id: '6.1.4',
    title: 'a reply to a one-way command reaches no two-way caller',
    requirement: 'A reply answers the request with its id (specification, rule 5): a reply to a one-way command is not delivered to another command\'s caller.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const twoway = await deliver(t, d, 'waiting', 'twoway');
      const oneway = await deliver(t, d, 'fireAndForget', 'oneway');
      if (twoway.id === undefined || oneway.id === undefined) return t.expect(...twoway.failures, ...oneway.failures);
      await t.device(op.rpcReply(d.token, oneway.id, json({ from: 'oneway' })));
      await t.device(op.rpcReply(d.token, twoway.id, json({ for: 'waiting' })));
      t.expect(await callerGot('twoWayCallerGotItsReply', twoway.rest, { for: 'waiting' }));
      await oneway.rest;
    },
  },
];
