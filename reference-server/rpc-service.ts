// Server-side RPC: a command is handed to exactly one RPC poll of its device (now, or at the
// device's next poll), and ends SUCCESSFUL (a two-way reply), DELIVERED (a one-way command handed
// over: ThingsBoard's DeviceActorMessageProcessor saves that status), or EXPIRED (not answered, or
// never delivered, in time). Whoever issued it (the control API) awaits the outcome.
//
// As in ThingsBoard (DeviceActorMessageProcessor.processRpcRequest calls createRpc only when the
// request is persisted), only persistent commands are stored, with each status change; a
// non-persistent command lives in this module's maps while it is live and is gone when it ends, so a
// round trip costs the store nothing. Request ids count per device in memory, from the high-water
// mark the store keeps for persistent commands (raised by each one, and by a clean shutdown), so an
// id never names two commands the device could still answer.
import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { LongPolls } from './long-poll.js';
import { sendJsonText } from './handler.js';
import type { DeviceRecord, RpcRecord, RpcStatus, Store } from './store/types.js';

/**
 * A status write nobody awaits (delivered, expired) that the store refused: the command's outcome
 * stands, and a store that cannot take writes is logged once by the server (app.ts), not per command.
 */
const unrecorded = () => {};

export type RpcOutcome =
  | { kind: 'replied'; response: string }
  | { kind: 'delivered' }
  | { kind: 'timeout' }
  | { kind: 'expired' }
  | { kind: 'deleted' };

export interface ServerRpcInput {
  method: string;
  /** JSON text, numbers as the caller sent them. */
  params: string;
  oneway: boolean;
  persistent: boolean;
  /** Absolute expiry, ms. */
  expirationTime: number;
  retries: number;
  /** JSON text, or null. */
  additionalInfo: string | null;
}

export interface RpcService {
  /** Take the command (a persistent one is stored first) and try to deliver it; `outcome` settles when its life ends. */
  submit(device: DeviceRecord, input: ServerRpcInput): Promise<{ rpc: RpcRecord; outcome: Promise<RpcOutcome> }>;
  /** Answer an RPC poll at once with the oldest queued command; false when there is none. */
  deliverQueued(deviceId: string, reply: FastifyReply): boolean;
  /** The device's reply (operation 6); replies to unknown or finished ids are dropped. */
  reply(deviceId: string, requestId: number, response: string): Promise<void>;
  /** Delete a command (persistent RPC API); its waiter sees `deleted`. */
  remove(rpcId: string): Promise<boolean>;
  /** A deleted device: its request-id counter goes (its commands end at their expiry, as before). */
  forgetDevice(deviceId: string): void;
  /** Live commands: waiting for a poll, and delivered two-way ones waiting for the device's reply. */
  size(): { queued: number; awaiting: number };
  /** Shutdown: end every open non-persistent command (persistent ones stay queued in the store) and save the request-id counters. */
  close(): Promise<void>;
}

interface Live {
  rpc: RpcRecord;
  delivered: boolean;
  timer: NodeJS.Timeout;
  settle: (outcome: RpcOutcome) => void;
}

/** The key of a delivered two-way command in `awaiting`. */
const replyKey = (deviceId: string, requestId: number) => `${requestId} ${deviceId}`;

export function createRpcService(store: Store, polls: LongPolls): RpcService {
  // Commands of this process that have not ended, by RPC uuid.
  const live = new Map<string, Live>();
  // Commands not yet handed to a poll, per device, oldest first.
  const queues = new Map<string, Live[]>();
  // Delivered two-way commands waiting for their reply, by device and request id.
  const awaiting = new Map<string, Live>();
  // The next request id of each device that had a command in this process.
  const nextIds = new Map<string, number>();

  function nextRequestId(deviceId: string): number {
    const id = nextIds.get(deviceId) ?? store.rpcRequestIdMark(deviceId);
    nextIds.set(deviceId, id + 1);
    return id;
  }

  const insert = (rpc: RpcRecord) => {
    store.insertRpc(rpc);
    store.raiseRpcRequestIdMark(rpc.deviceId, rpc.requestId + 1);
  };

  function forget(entry: Live): void {
    clearTimeout(entry.timer);
    live.delete(entry.rpc.id);
    if (entry.delivered) awaiting.delete(replyKey(entry.rpc.deviceId, entry.rpc.requestId));
    else dequeue(entry);
  }

  function dequeue(entry: Live): void {
    const queue = queues.get(entry.rpc.deviceId);
    if (!queue) return;
    const at = queue.indexOf(entry);
    if (at >= 0) queue.splice(at, 1);
    if (queue.length === 0) queues.delete(entry.rpc.deviceId);
  }

  function track(rpc: RpcRecord, settle: (outcome: RpcOutcome) => void): Live {
    const entry: Live = { rpc, delivered: false, settle, timer: undefined as unknown as NodeJS.Timeout };
    entry.timer = setTimeout(onExpiry, Math.max(0, rpc.expirationTime - Date.now()), entry);
    live.set(rpc.id, entry);
    const queue = queues.get(rpc.deviceId);
    if (queue) queue.push(entry);
    else queues.set(rpc.deviceId, [entry]);
    return entry;
  }

  /**
   * Ends a command. A non-persistent one's issuer has the outcome at once; a persistent one's once
   * its final status is committed, so that a read-back agrees with it: the promise then fails when
   * the status could not be stored (the device's reply is refused, and the issuer has its outcome
   * all the same).
   */
  function finish(entry: Live, status: RpcStatus, outcome: RpcOutcome, response: string | null = null): Promise<void> | undefined {
    forget(entry);
    if (!entry.rpc.persistent) return void entry.settle(outcome);
    const settle = () => entry.settle(outcome);
    const written = store.write(() => store.updateRpc(entry.rpc.id, { status, response: response ?? entry.rpc.response }));
    written.then(settle, settle);
    return written;
  }

  /** ThingsBoard saves EXPIRED whether or not a poll took the command; only its caller's answer differs. */
  function onExpiry(entry: Live): void {
    finish(entry, 'EXPIRED', { kind: entry.delivered ? 'timeout' : 'expired' })?.catch(unrecorded);
  }

  function send(entry: Live, reply: FastifyReply): void {
    dequeue(entry);
    entry.delivered = true;
    const { rpc } = entry;
    // ThingsBoard's JsonConverter prints params from their text: 1.0 reaches the device as 1.0.
    sendJsonText(reply, 200, `{"id":${rpc.requestId},"method":${JSON.stringify(rpc.method)},"params":${rpc.params}}`);
    if (rpc.oneway) return void finish(entry, 'DELIVERED', { kind: 'delivered' })?.catch(unrecorded);
    awaiting.set(replyKey(rpc.deviceId, rpc.requestId), entry);
    if (rpc.persistent) store.write(() => store.updateRpc(rpc.id, { status: 'DELIVERED' })).catch(unrecorded);
  }

  const nextQueued = (deviceId: string): Live | undefined => queues.get(deviceId)?.[0];

  // Persistent commands queued before a restart are still waiting for their device.
  for (const rpc of store.pendingPersistentRpcs(Date.now())) track(rpc, () => {});

  return {
    async submit(device, input) {
      const rpc: RpcRecord = {
        id: randomUUID(), deviceId: device.id, requestId: nextRequestId(device.id), method: input.method, params: input.params,
        oneway: input.oneway, persistent: input.persistent, status: 'QUEUED', expirationTime: input.expirationTime,
        createdTime: Date.now(), response: null, retries: input.retries, additionalInfo: input.additionalInfo,
      };
      if (rpc.persistent) await store.write(insert, rpc);
      let settle!: (outcome: RpcOutcome) => void;
      const outcome = new Promise<RpcOutcome>((resolve) => (settle = resolve));
      track(rpc, settle);
      const poll = polls.takeRpcPoll(device.id);
      if (poll) {
        const next = nextQueued(device.id);
        if (next) send(next, poll);
      }
      return { rpc, outcome };
    },

    deliverQueued(deviceId, reply) {
      const next = nextQueued(deviceId);
      if (!next) return false;
      send(next, reply);
      return true;
    },

    async reply(deviceId, requestId, response) {
      const entry = awaiting.get(replyKey(deviceId, requestId));
      // A persistent command's device is answered once the reply is stored: a read-back after its 200 sees it.
      if (entry) return finish(entry, 'SUCCESSFUL', { kind: 'replied', response }, response);
      // A persistent two-way command delivered before a restart: no one awaits it any more, but the
      // reply is kept. Any other reply (a command ended, unknown, or not delivered) is dropped.
      const stored = store.rpcByRequestId(deviceId, requestId);
      if (stored && !stored.oneway && stored.status === 'DELIVERED') {
        await store.write(() => store.updateRpc(stored.id, { status: 'SUCCESSFUL', response }));
      }
    },

    async remove(rpcId) {
      const entry = live.get(rpcId);
      if (entry) {
        forget(entry);
        entry.settle({ kind: 'deleted' });
      }
      return store.write(() => {
        if (!store.rpcById(rpcId)) return false;
        store.deleteRpc(rpcId);
        return true;
      });
    },

    forgetDevice(deviceId) {
      nextIds.delete(deviceId);
    },

    size() {
      return { queued: live.size - awaiting.size, awaiting: awaiting.size };
    },

    async close() {
      for (const entry of [...live.values()]) {
        if (entry.rpc.persistent) forget(entry);
        else onExpiry(entry);
      }
      // Ids handed to non-persistent commands are not given again after a clean restart. A store
      // that cannot take writes keeps the marks of persistent commands only (as after a crash).
      const marks = [...nextIds];
      nextIds.clear();
      await store.write(() => {
        for (const [deviceId, next] of marks) store.raiseRpcRequestIdMark(deviceId, next);
      }).catch(unrecorded);
    },
  };
}
