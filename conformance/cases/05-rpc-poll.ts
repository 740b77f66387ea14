// Operation 5: GET /api/v1/{token}/rpc?timeout=.. (long poll for server-side RPC commands).
import type { Case, CaseRun } from '../case.js';
import type { DeviceFixture } from '../control/devices.js';
import type { Failure } from '../verdict.js';
import type { Reply } from '../client.js';
import { at, bodyIsEmpty, checkAll, isObject, isTrue, numberTextIs, statusIs, valueEquals } from '../checks.js';
import type { RpcCommand } from '../control/server-side.js';
import { changeDuringPoll, DELIVERY_TIMEOUT_MS, notBeforeChange, op, QUIET_TIMEOUT_MS, SETTLE_MS, startPoll, unanswered, type PollResult } from './kit.js';
import { deletedDuringPoll, invalidInput, unboundTimeout } from './patterns.js';

/** ThingsBoard's minimum server-side RPC timeout; the REST caller waits at most this long. */
export const RPC_TIMEOUT_MS = 5000;
/** How long a poll without timeout must at least stay open. */
const NO_TIMEOUT_OPEN_MS = 1000;

export interface CommandDuringPoll extends PollResult {
  answeredBeforeChange: boolean;
  /** The REST caller's answer (two-way: the device's reply; one-way: 200 once delivered). */
  rest: Promise<Reply>;
}

/** Opens a poll, lets it settle, then issues the command (an object, or JSON text with its own timeout). */
export async function commandDuringPoll(t: CaseRun, d: DeviceFixture, command: RpcCommand | string, direction: 'oneway' | 'twoway', version: 1 | 2 = 1): Promise<CommandDuringPoll> {
  let rest: Promise<Reply> | undefined;
  const result = await changeDuringPoll(t, op.rpcPoll(d.token, DELIVERY_TIMEOUT_MS), async () => {
    rest = t.control.sendRpc(direction, d.id, typeof command === 'string' ? command : { timeout: RPC_TIMEOUT_MS, ...command }, version);
    rest.catch(() => undefined); // awaited by the case; a harness error surfaces there
  }, 1);
  return { ...result, rest: rest ?? notSent() };
}

/** A rejection that only surfaces where a case awaits it (a faulty server may answer the poll first). */
function notSent(): Promise<Reply> {
  const rejected = Promise.reject(new Error('the command was not sent: the poll was answered before it'));
  rejected.catch(() => undefined);
  return rejected;
}

/** The poll delivered this command: {id (integer >= 0), method, params}. */
export function deliveredCommand(result: PollResult, command: RpcCommand): (Failure | undefined)[] {
  if (!result.reply) return [unanswered(result, 'a poll while a command was issued')];
  const body = result.reply.json;
  const id = isObject(body) ? body.id : undefined;
  return [
    statusIs(200)(result.reply),
    valueEquals('commandMethodIs', isObject(body) ? body.method : body, command.method),
    valueEquals('commandParamsAre', isObject(body) ? body.params : body, command.params),
    isTrue('commandIdIsInteger', Number.isInteger(Number(id)) && Number(id) >= 0, 'an integer id >= 0 (a string holding one is allowed)', id),
  ];
}

export const rpcPollCases: Case[] = [
  {
    id: '5.1.1',
    title: 'a command issued during the poll is delivered as {id, method, params}',
    requirement: 'When a server-side RPC command is issued for the device, the open poll is answered with the RPC request object (id, method, params) (specification, operation 5 and Events).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const command = { method: 'setGpio', params: { pin: 23, value: 1 } };
      const result = await commandDuringPoll(t, t.devices[0], command, 'oneway');
      t.expect(notBeforeChange(result), ...deliveredCommand(result, command));
      if (result.reply?.status === 200) t.expect(at('SHOULD', statusIs(200)(await result.rest)));
    },
  },
  {
    id: '5.6.1',
    title: 'a command issued while no poll is open is delivered at once by the next poll',
    requirement: 'ThingsBoard keeps a command until it expires and returns it immediately to the next poll.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const command = { method: 'pending', params: { n: 1 } };
      const rest = t.control.sendRpc('oneway', d.id, { ...command, timeout: RPC_TIMEOUT_MS });
      await t.wait(SETTLE_MS);
      const result = await startPoll(t, op.rpcPoll(d.token, DELIVERY_TIMEOUT_MS)).result;
      t.expect(...deliveredCommand(result, command));
      t.expect(statusIs(200)(await rest));
    },
  },
  {
    id: '5.6.2',
    title: 'successive commands carry different integer ids',
    requirement: 'ThingsBoard numbers the commands of a device with integers that do not repeat.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const rests = [1, 2].map((n) => t.control.sendRpc('oneway', d.id, { method: `m${n}`, params: { n }, timeout: RPC_TIMEOUT_MS }));
      await t.wait(SETTLE_MS);
      const first = await startPoll(t, op.rpcPoll(d.token, DELIVERY_TIMEOUT_MS)).result;
      const second = await startPoll(t, op.rpcPoll(d.token, DELIVERY_TIMEOUT_MS)).result;
      const ids = [first, second].map((r) => (isObject(r.reply?.json) ? r.reply.json.id : undefined));
      const methods = [first, second].map((r) => (isObject(r.reply?.json) ? r.reply.json.method : undefined)).sort();
      t.expect(
        unanswered(first, 'the first poll'),
        unanswered(second, 'the second poll'),
        valueEquals('bothCommandsDelivered', methods, ['m1', 'm2']),
        isTrue('idsDiffer', ids.every((id) => Number.isInteger(Number(id))) && Number(ids[0]) !== Number(ids[1]), 'two different integer ids', ids),
      );
      await Promise.all(rests);
    },
  },
  {
    id: '5.5.1',
    title: 'with no command the poll is answered at its timeout (408), not with a command',
    requirement: 'When no request arrives within the timeout the poll is answered with a timeout message (specification, operation 5 and Events): 408 in the document.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const result = await startPoll(t, op.rpcPoll(t.devices[0].token, QUIET_TIMEOUT_MS)).result;
      if (!result.reply) return t.expect(unanswered(result, `a poll with timeout=${QUIET_TIMEOUT_MS}`));
      t.expect(statusIs(408)(result.reply));
    },
  },
  {
    id: '5.6.3',
    title: 'the timeout answer has an empty body',
    requirement: 'ThingsBoard answers a poll that times out 408 with an empty body.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const result = await startPoll(t, op.rpcPoll(t.devices[0].token, QUIET_TIMEOUT_MS)).result;
      if (!result.reply) return t.expect(unanswered(result, `a poll with timeout=${QUIET_TIMEOUT_MS}`));
      t.expect(...checkAll(result.reply, statusIs(408), bodyIsEmpty()));
    },
  },
  invalidInput({
    id: '5.2.1',
    title: 'a timeout that is not an integer is 400',
    requirement: 'timeout is an integer in milliseconds; an invalid request parameter is 400 (specification, Limits and Errors).',
    request: (k) => op.rpcPoll(k, '1.5s'),
  }),
  deletedDuringPoll('5.6.4', 'RPC poll', (token) => op.rpcPoll(token, DELIVERY_TIMEOUT_MS)),
  unboundTimeout('5.2.2', (token, timeout) => op.rpcPoll(token, timeout)),
  {
    id: '5.6.9',
    title: 'a poll without timeout waits (ThingsBoard\'s default is 60 s) and is answered by a command',
    requirement: 'ThingsBoard uses transport.http.request_timeout (60000 ms) when timeout is absent or 0, so such a poll is still open a second later.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const command = { method: 'noTimeout', params: {} };
      const poll = startPoll(t, { ...op.rpcPoll(d.token, DELIVERY_TIMEOUT_MS), query: undefined });
      await t.wait(NO_TIMEOUT_OPEN_MS);
      if (!poll.pending()) return t.expect(isTrue('pollWithoutTimeoutWaits', false, `still open after ${NO_TIMEOUT_OPEN_MS} ms`, (await poll.result).reply?.status ?? 'no answer'));
      const rest = t.control.sendRpc('oneway', d.id, { ...command, timeout: RPC_TIMEOUT_MS });
      t.expect(...deliveredCommand(await poll.result, command));
      await rest;
    },
  },
  {
    id: '5.6.5',
    title: 'params reach the device with each number as the caller wrote it: 1.0 stays 1.0, big integers keep every digit',
    requirement: 'ThingsBoard prints the command\'s params from their JSON text (JsonConverter over the text its REST side kept), so {"v":1.0,"big":12345678901234567890} arrives with those numbers.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const command = `{"method":"setLevel","params":{"v":1.0,"big":12345678901234567890},"timeout":${RPC_TIMEOUT_MS}}`;
      const result = await commandDuringPoll(t, t.devices[0], command, 'oneway');
      if (!result.reply) return t.expect(unanswered(result, 'a poll while a command was issued'));
      t.expect(notBeforeChange(result), ...checkAll(result.reply, statusIs(200), numberTextIs('v', '1.0'), numberTextIs('big', '12345678901234567890')));
      await result.rest.catch(() => undefined);
    },
  },
];
