// Server-side RPC: a command is stored QUEUED, handed to exactly one RPC poll of its device (now,
// or at the device's next poll), and ends SUCCESSFUL (a two-way reply), DELIVERED (a one-way command
// handed over: ThingsBoard's DeviceActorMessageProcessor saves that status), TIMEOUT (delivered, not
// answered) or EXPIRED (never delivered). Whoever issued it (the control API)
// awaits the outcome.
import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { LongPolls } from './long-poll.js';
import { sendJsonText } from './handler.js';
import type { DeviceRecord, RpcRecord, Store } from './store/types.js';

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
  /** Store the command and try to deliver it; `outcome` settles when its life ends. */
  submit(device: DeviceRecord, input: ServerRpcInput): Promise<{ rpc: RpcRecord; outcome: Promise<RpcOutcome> }>;
  /** Answer an RPC poll at once with the oldest queued command; false when there is none. */
  deliverQueued(deviceId: string, reply: FastifyReply): boolean;
  /** The device's reply (operation 6); replies to unknown or finished ids are dropped. */
  reply(deviceId: string, requestId: number, response: string): Promise<void>;
  /** Delete a command (persistent RPC API); its waiter sees `deleted`. */
  remove(rpcId: string): Promise<boolean>;
  /** Shutdown: end every open non-persistent command; persistent ones stay queued in the store. */
  close(): void;
}

interface Live {
  rpc: RpcRecord;
  delivered: boolean;
  timer: NodeJS.Timeout;
  settle: (outcome: RpcOutcome) => void;
}

export function createRpcService(store: Store, polls: LongPolls): RpcService {
  // Commands of this process that have not ended, by RPC uuid. The store holds their status;
  // this map holds what the store cannot: the timer and the awaiting caller.
  const live = new Map<string, Live>();
  // Commands not yet handed to a poll, per device, oldest first.
  const queues = new Map<string, Live[]>();

  const insert = (rpc: RpcRecord) => {
    rpc.requestId = store.nextRpcRequestId(rpc.deviceId);
    store.insertRpc(rpc);
    return rpc;
  };

  function forget(entry: Live): void {
    clearTimeout(entry.timer);
    live.delete(entry.rpc.id);
    if (!entry.delivered) dequeue(entry);
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
   * The issuer learns the outcome once the final status is committed, so a read-back agrees with it;
   * the promise fails when the status could not be stored (the device's reply is then refused, and
   * the issuer has its outcome all the same).
   */
  function finish(entry: Live, status: RpcRecord['status'], outcome: RpcOutcome, response: string | null = null): Promise<void> {
    forget(entry);
    const settle = () => entry.settle(outcome);
    const written = store.write(() => store.updateRpc(entry.rpc.id, { status, response: response ?? entry.rpc.response }));
    written.then(settle, settle);
    return written;
  }

  /** ThingsBoard saves EXPIRED whether or not a poll took the command; only its caller's answer differs. */
  function onExpiry(entry: Live): void {
    finish(entry, 'EXPIRED', { kind: entry.delivered ? 'timeout' : 'expired' }).catch(unrecorded);
  }

  function send(entry: Live, reply: FastifyReply): void {
    dequeue(entry);
    entry.delivered = true;
    const { rpc } = entry;
    // ThingsBoard's JsonConverter prints params from their text: 1.0 reaches the device as 1.0.
    sendJsonText(reply, 200, `{"id":${rpc.requestId},"method":${JSON.stringify(rpc.method)},"params":${rpc.params}}`);
    if (rpc.oneway) finish(entry, 'DELIVERED', { kind: 'delivered' }).catch(unrecorded);
    else store.write(() => store.updateRpc(rpc.id, { status: 'DELIVERED' })).catch(unrecorded);
  }

  const nextQueued = (deviceId: string): Live | undefined => queues.get(deviceId)?.[0];

  // Persistent commands queued before a restart are still waiting for their device.
  for (const rpc of store.pendingPersistentRpcs(Date.now())) track(rpc, () => {});

  return {
    async submit(device, input) {
      const now = Date.now();
      const rpc = await store.write(insert, {
        id: randomUUID(), deviceId: device.id, requestId: -1, method: input.method, params: input.params,
        oneway: input.oneway, persistent: input.persistent, status: 'QUEUED', expirationTime: input.expirationTime,
        createdTime: now, response: null, retries: input.retries, additionalInfo: input.additionalInfo,
      } satisfies RpcRecord);
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
      const stored = store.rpcByRequestId(deviceId, requestId);
      // An ended command is no longer live and no longer DELIVERED: its reply is dropped below.
      if (!stored || stored.oneway) return;
      const entry = live.get(stored.id);
      // The device is answered once the reply is stored: a read-back after its 200 sees it.
      if (entry?.delivered) return finish(entry, 'SUCCESSFUL', { kind: 'replied', response }, response);
      // Delivered before a restart: no one awaits it any more, but the reply is kept.
      if (!entry && stored.status === 'DELIVERED') {
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

    close() {
      for (const entry of [...live.values()]) {
        if (entry.rpc.persistent) forget(entry);
        else onExpiry(entry);
      }
    },
  };
}
