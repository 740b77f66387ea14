// Waiters for the two long polls (attribute updates, server RPC). A waiter holds the pending reply
// and one timer; answering it, its timeout, or the client going away removes both at once, so an
// ended poll costs nothing. No closures per poll: the timer and the close listener are module-level
// functions that find their waiter through an argument or a symbol on the response.
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { ErrorCode, errorBody } from './errors.js';
import { sendJsonText } from './handler.js';

/** attributes and rpc are the device's polls (408 on timeout); clientRpc waits for a rule (503). */
export type PollKind = 'attributes' | 'rpc' | 'clientRpc';

interface Waiter {
  kind: PollKind;
  deviceId: string;
  reply: FastifyReply;
  timer: NodeJS.Timeout;
}

const WAITER = Symbol('dhi.waiter');
/** ThingsBoard's bare text for a poll whose device was deleted (DeviceApiController.onDeviceDeleted). */
export const DEVICE_DELETED = 'Device was deleted!';
type TaggedResponse = ServerResponse & { [WAITER]?: Waiter };

export interface LongPolls {
  /** Park a poll until publish/deliver, its timeout (408, empty body) or the client leaving. */
  wait(kind: PollKind, deviceId: string, reply: FastifyReply, timeoutMs: number): void;
  /** Answer every open attribute poll of the device with the update (JSON text); returns how many got it. */
  publish(deviceId: string, update: string): number;
  /** Take the oldest open RPC poll of the device, if any, to answer it (caller sends the reply). */
  takeRpcPoll(deviceId: string): FastifyReply | undefined;
  /** End every open poll of a deleted device: 403 `Device was deleted!` (ThingsBoard's HttpSessionListener). */
  endDevice(deviceId: string): void;
  /** End every open poll as if it had timed out (shutdown). */
  endAll(): void;
  /** Open polls and live timers, for tests and metrics. */
  size(): { attributes: number; rpc: number; clientRpc: number; timers: number };
}

export function createLongPolls(): LongPolls {
  // Insertion-ordered sets per device: the RPC poll taken is the oldest one.
  const open: Record<PollKind, Map<string, Set<Waiter>>> = { attributes: new Map(), rpc: new Map(), clientRpc: new Map() };
  const kinds = Object.keys(open) as PollKind[];
  let timers = 0;

  const polls: LongPolls = {
    wait(kind, deviceId, reply, timeoutMs) {
      const waiter = { kind, deviceId, reply } as Waiter;
      waiter.timer = setTimeout(onTimeout, timeoutMs, waiter);
      timers++;
      let set = open[kind].get(deviceId);
      if (!set) open[kind].set(deviceId, (set = new Set()));
      set.add(waiter);
      const raw = reply.raw as TaggedResponse;
      raw[WAITER] = waiter;
      raw.on('close', onClose);
    },
    publish(deviceId, update) {
      const set = open.attributes.get(deviceId);
      if (!set) return 0;
      const waiters = [...set];
      for (const waiter of waiters) {
        release(waiter);
        sendJsonText(waiter.reply, 200, update);
      }
      return waiters.length;
    },
    takeRpcPoll(deviceId) {
      const set = open.rpc.get(deviceId);
      if (!set) return undefined;
      const [waiter] = set;
      release(waiter);
      return waiter.reply;
    },
    endDevice(deviceId) {
      for (const kind of kinds) {
        for (const waiter of [...(open[kind].get(deviceId) ?? [])]) {
          release(waiter);
          waiter.reply.code(403).type('text/plain; charset=utf-8').send(DEVICE_DELETED);
        }
      }
    },
    endAll() {
      for (const kind of kinds) {
        for (const set of [...open[kind].values()]) for (const waiter of [...set]) onTimeout(waiter);
      }
    },
    size() {
      const count = (kind: PollKind) => [...open[kind].values()].reduce((n, set) => n + set.size, 0);
      return { attributes: count('attributes'), rpc: count('rpc'), clientRpc: count('clientRpc'), timers };
    },
  };

  /** Forget a waiter: clear its timer, drop it from its device's set and its close listener. */
  function release(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    timers--;
    const byDevice = open[waiter.kind];
    const set = byDevice.get(waiter.deviceId);
    if (set) {
      set.delete(waiter);
      if (set.size === 0) byDevice.delete(waiter.deviceId);
    }
    const raw = waiter.reply.raw as TaggedResponse;
    raw.removeListener('close', onClose);
    // Not `delete`: that would turn the response object into a slow dictionary-mode object.
    raw[WAITER] = undefined;
  }

  function onTimeout(waiter: Waiter): void {
    release(waiter);
    if (waiter.kind !== 'clientRpc') return void waiter.reply.code(408).send();
    waiter.reply.code(503).send(errorBody(503, ErrorCode.GENERAL, 'No rule replied to the RPC request in time'));
  }

  function onClose(this: TaggedResponse): void {
    const waiter = this[WAITER];
    if (waiter) release(waiter);
  }

  return polls;
}
