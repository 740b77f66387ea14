// Server-side RPC seen from ThingsBoard's REST side (operations 5 and 6): a persistent command's
// stored status follows what the device did with it, and v1 tells a command a poll took from one
// no poll took. Commands meant to expire carry an absolute expirationTime EXPIRY_MS ahead of the
// suite's clock, so the target's clock must agree with it to well within that (NTP does).
import type { Case, CaseRun } from '../case.js';
import type { DeviceFixture } from '../control/devices.js';
import type { Failure } from '../verdict.js';
import type { Reply } from '../client.js';
import { isObject, statusIs, valueEquals } from '../checks.js';
import type { RpcCommand } from '../control/server-side.js';
import { deliveredCommand, RPC_TIMEOUT_MS } from './05-rpc-poll.js';
import { DELIVERY_TIMEOUT_MS, expectStored, op, QUIET_TIMEOUT_MS, raw, startPoll, unanswered } from './kit.js';

const EXPIRY_MS = 1500;
/** Waited past an expiry before looking: the target's timer fires and its status is saved. */
const PAST_EXPIRY_MS = EXPIRY_MS + 500;

interface Persisted {
  rpcId?: string;
  failure?: Failure;
}

/** Issues a persistent command: ThingsBoard answers 200 {"rpcId": uuid} at once. */
async function persist(t: CaseRun, d: DeviceFixture, direction: 'oneway' | 'twoway', command: RpcCommand): Promise<Persisted> {
  const reply = await t.control.sendRpc(direction, d.id, { timeout: RPC_TIMEOUT_MS, ...command, persistent: true }, 2);
  const rpcId = isObject(reply.json) && typeof reply.json.rpcId === 'string' ? reply.json.rpcId : undefined;
  if (reply.status === 200 && rpcId) return { rpcId };
  return { failure: { check: 'persistentRpcAnswered', expected: '200 {"rpcId": <uuid>} at once', actual: `${reply.status} ${reply.text.slice(0, 200)}` } };
}

/** The stored command reaches `status` (ThingsBoard saves statuses asynchronously); `more` checks the record too. */
function statusBecomes(t: CaseRun, rpcId: string, status: string, more: (rpc: Record<string, unknown>) => Failure | undefined = () => undefined): Promise<void> {
  return expectStored(t, () => t.control.persistentRpc(rpcId), (reply: Reply) => {
    const rpc = isObject(reply.json) ? reply.json : {};
    return [valueEquals('persistentRpcStatus', { http: reply.status, status: rpc.status }, { http: 200, status }), more(rpc)];
  });
}

/** A poll that takes the queued command; its id, or undefined after recording why not. */
async function take(t: CaseRun, d: DeviceFixture, command: RpcCommand): Promise<number | string | undefined> {
  const result = await startPoll(t, op.rpcPoll(d.token, DELIVERY_TIMEOUT_MS)).result;
  const failures = deliveredCommand(result, command);
  t.expect(...failures);
  return failures.some(Boolean) || !isObject(result.reply?.json) ? undefined : (result.reply.json.id as number | string);
}

/** A poll that must find nothing: answered at its timeout with 408. */
async function findsNothing(t: CaseRun, d: DeviceFixture, why: string): Promise<void> {
  const result = await startPoll(t, op.rpcPoll(d.token, QUIET_TIMEOUT_MS)).result;
  if (!result.reply) return t.expect(unanswered(result, why));
  t.expect(valueEquals('noCommandDelivered', { status: result.reply.status, body: result.reply.text.slice(0, 200) }, { status: 408, body: '' }));
}

export const persistentRpcCases: Case[] = [
  {
    id: '5.6.6',
    title: 'a persistent one-way command is QUEUED until a poll takes it, then DELIVERED',
    requirement: 'ThingsBoard saves a persistent command QUEUED and, once the device got it, DELIVERED; a one-way command ends there (DeviceActorMessageProcessor.processRpcResponseStatus).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const command = { method: 'blink', params: { times: 3 } };
      const { rpcId, failure } = await persist(t, d, 'oneway', command);
      if (!rpcId) return t.expect(failure);
      await statusBecomes(t, rpcId, 'QUEUED');
      if ((await take(t, d, command)) === undefined) return;
      await statusBecomes(t, rpcId, 'DELIVERED');
    },
  },
  {
    id: '6.6.5',
    title: 'a persistent two-way command goes QUEUED, DELIVERED, then SUCCESSFUL with the device\'s reply as its response',
    requirement: 'ThingsBoard saves DELIVERED when the poll took a two-way command and SUCCESSFUL with the response when the device replied (RpcV2Controller, DeviceActorMessageProcessor).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const command = { method: 'getState', params: { want: 'level' } };
      const { rpcId, failure } = await persist(t, d, 'twoway', command);
      if (!rpcId) return t.expect(failure);
      await statusBecomes(t, rpcId, 'QUEUED');
      const id = await take(t, d, command);
      if (id === undefined) return;
      await statusBecomes(t, rpcId, 'DELIVERED');
      t.expect(statusIs(200)(await t.device(op.rpcReply(d.token, id, raw('{"level":7,"ok":true}')))));
      await statusBecomes(t, rpcId, 'SUCCESSFUL', (rpc) => valueEquals('persistentRpcResponse', rpc.response, { level: 7, ok: true }));
      // An ended command can still be deleted; then it is gone.
      await t.control.deletePersistentRpc(rpcId);
      t.expect(statusIs(404)(await t.control.persistentRpc(rpcId)));
    },
  },
  {
    id: '5.6.7',
    title: 'a persistent command no poll took before its expirationTime is EXPIRED and never delivered',
    requirement: 'ThingsBoard saves EXPIRED when a persistent command\'s expiry comes first, and drops it from the device\'s queue (DeviceActorMessageProcessor.processServerSideRpcTimeout).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const { rpcId, failure } = await persist(t, d, 'twoway', { method: 'late', params: {}, expirationTime: Date.now() + EXPIRY_MS });
      if (!rpcId) return t.expect(failure);
      await t.wait(PAST_EXPIRY_MS);
      await statusBecomes(t, rpcId, 'EXPIRED');
      await findsNothing(t, d, 'a poll after the command expired');
    },
  },
  {
    id: '6.6.6',
    title: 'a persistent two-way command delivered but not answered before its expiry is EXPIRED, and a late reply does not change it',
    requirement: 'ThingsBoard saves EXPIRED at the expiry of a persistent command a poll took but the device did not answer (processServerSideRpcTimeout); a reply after that finds no pending command.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const command = { method: 'slow', params: {}, expirationTime: Date.now() + EXPIRY_MS };
      const { rpcId, failure } = await persist(t, d, 'twoway', command);
      if (!rpcId) return t.expect(failure);
      const id = await take(t, d, command);
      if (id === undefined) return;
      await t.wait(PAST_EXPIRY_MS);
      await statusBecomes(t, rpcId, 'EXPIRED');
      t.expect(statusIs(200)(await t.device(op.rpcReply(d.token, id, raw('{"late":true}')))));
      await statusBecomes(t, rpcId, 'EXPIRED', (rpc) => valueEquals('persistentRpcResponse', rpc.response ?? null, null));
    },
  },
  {
    id: '5.6.8',
    title: 'a persistent command deleted while queued is gone: 404 on read and on a second delete, and no poll gets it',
    requirement: 'ThingsBoard\'s DELETE /api/rpc/persistent/{rpcId} deletes the command and removes it from the device\'s pending commands (RpcV2Controller.deleteRpc).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const { rpcId, failure } = await persist(t, d, 'oneway', { method: 'cancelled', params: {} });
      if (!rpcId) return t.expect(failure);
      await t.control.deletePersistentRpc(rpcId);
      t.expect(statusIs(404)(await t.control.persistentRpc(rpcId)));
      await findsNothing(t, d, 'a poll after the command was deleted');
      t.expect(statusIs(404)(await t.control.deletePersistentRpc(rpcId, [200, 404])));
    },
  },
  {
    id: '6.6.7',
    title: 'v1 two-way: 408 when a poll took the command but no reply came in time, 409 when no poll took it',
    requirement: 'ThingsBoard\'s RpcV1Controller answers a command that timed out after delivery 408 and one that was never delivered 409 (RpcError TIMEOUT / NO_ACTIVE_CONNECTION).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const command = { method: 'unanswered', params: {} };
      const poll = startPoll(t, op.rpcPoll(d.token, DELIVERY_TIMEOUT_MS));
      const delivered = t.control.sendRpc('twoway', d.id, { ...command, expirationTime: Date.now() + EXPIRY_MS });
      t.expect(...deliveredCommand(await poll.result, command));
      t.expect(statusIs(408)(await delivered));
      const undelivered = await t.control.sendRpc('twoway', d.id, { method: 'nobody', params: {}, expirationTime: Date.now() + EXPIRY_MS });
      t.expect(statusIs(409)(undelivered));
    },
  },
];
