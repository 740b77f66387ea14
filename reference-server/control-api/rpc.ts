// Server-side RPC (ThingsBoard RpcV1Controller, RpcV2Controller, AbstractRpcController) and the
// persistent RPC API. The command's life is rpc-service.ts; this maps its outcome to HTTP:
// two-way 200 with the reply (406 if not JSON), one-way 200 empty; v1 408 delivered-but-unanswered
// and 409 never delivered, v2 504 for both; persistent 200 {rpcId} at once.
import { ApiError, ErrorCode, badRequest, notFound } from '../errors.js';
import { sendJsonText, type Handler, type Handlers } from '../handler.js';
import { validatedDevice, entityId, pageQuery, pageText } from './entities.js';
import { memberText } from '../json-text.js';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../context.js';
import type { RpcOutcome } from '../rpc-service.js';
import type { RpcRecord } from '../store/types.js';

type Version = 'v1' | 'v2';

/** Node timers fire at once beyond 2^31-1 ms; a command lives at most that long (about 24 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

const unanswered = (version: Version, what: string) =>
  version === 'v1'
    ? new ApiError(408, ErrorCode.GENERAL, `${what} was delivered but not answered in time`)
    : new ApiError(504, ErrorCode.GENERAL, `${what} was not answered in time`);
const undelivered = (version: Version, what: string) =>
  version === 'v1'
    ? new ApiError(409, ErrorCode.GENERAL, `${what} was not delivered to the device in time`)
    : new ApiError(504, ErrorCode.GENERAL, `${what} was not delivered to the device in time`);

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function respond(reply: FastifyReply, version: Version, outcome: RpcOutcome): FastifyReply {
  switch (outcome.kind) {
    case 'replied': {
      if (!parseJson(outcome.response).ok) throw new ApiError(406, ErrorCode.GENERAL, 'The device replied with a body that is not JSON');
      // The device's bytes as sent: re-serialising would turn 1.0 into 1 and round big integers.
      return sendJsonText(reply, 200, outcome.response);
    }
    case 'delivered':
      return reply.code(200).send();
    case 'timeout':
      throw unanswered(version, 'The RPC command');
    case 'expired':
    case 'deleted':
      throw undelivered(version, 'The RPC command');
  }
}

/**
 * ThingsBoard's Rpc entity as JSON text: the request as the device actor stored it (params as JSON
 * text), the device's reply as it sent it (a reply that is not JSON as a string), additionalInfo
 * as the caller sent it. Printed from the kept texts, so 1.0 stays 1.0.
 */
function rpcJson(rpc: RpcRecord): string {
  const head = JSON.stringify({
    id: entityId('RPC', rpc.id),
    createdTime: rpc.createdTime,
    deviceId: entityId('DEVICE', rpc.deviceId),
    expirationTime: rpc.expirationTime,
    request: {
      id: rpc.id,
      oneway: rpc.oneway,
      body: { method: rpc.method, params: rpc.params },
      persisted: rpc.persistent,
      retries: rpc.retries,
    },
  });
  const response = rpc.response === null ? 'null' : parseJson(rpc.response).ok ? rpc.response : JSON.stringify(rpc.response);
  return `${head.slice(0, -1)},"response":${response},"status":"${rpc.status}","additionalInfo":${rpc.additionalInfo ?? 'null'}}`;
}

export function rpcHandlers({ store, rpc, config }: ServerContext): Handlers {
  type Send = Handler<'sendOneWayRpcV1' | 'sendRpcV1' | 'sendOneWayRpcV2' | 'sendRpcV2'>;
  const send = (version: Version, oneway: boolean): Send => async (request, reply) => {
    const { deviceId } = request.params;
    const device = validatedDevice(store, deviceId);
    const { body } = request;
    const timeout = body.timeout ?? config.serverRpcDefaultTimeoutMs;
    const now = Date.now();
    const { rpc: taken, outcome } = await rpc.submit(device, {
      method: body.method,
      params: memberText(body, 'params'),
      oneway,
      persistent: body.persistent === true,
      expirationTime: Math.min(body.expirationTime ?? now + Math.max(config.serverRpcMinTimeoutMs, timeout), now + MAX_TIMER_MS),
      retries: body.retries ?? 0,
      additionalInfo: body.additionalInfo == null ? null : memberText(body, 'additionalInfo'),
    });
    if (taken.persistent) return reply.code(200).send({ rpcId: taken.id });
    return respond(reply, version, await outcome);
  };

  // Only persistent commands are stored: a non-persistent one's id is as unknown as ThingsBoard's
  // (checkRpcId finds no row), live or not.
  const persistent = (rpcId: string): RpcRecord => {
    const found = store.rpcById(rpcId);
    if (!found) throw notFound(`Rpc with id [${rpcId}] is not found`);
    return found;
  };

  return {
    sendOneWayRpcV1: send('v1', true),
    sendRpcV1: send('v1', false),
    sendOneWayRpcV2: send('v2', true),
    sendRpcV2: send('v2', false),

    getPersistentRpc(request, reply) {
      return sendJsonText(reply, 200, rpcJson(persistent(request.params.rpcId)));
    },

    async deletePersistentRpc(request, reply) {
      const { rpcId } = request.params;
      persistent(rpcId);
      await rpc.remove(rpcId);
      return reply.code(200).send();
    },

    getPersistentRpcByDevice(request, reply) {
      const { deviceId } = request.params;
      validatedDevice(store, deviceId);
      const { rpcStatus } = request.query;
      // RpcV2Controller refuses it: deleted commands are gone, not listed.
      if (rpcStatus === 'DELETED') throw badRequest('RpcStatus: DELETED');
      const page = pageQuery(request.query, 'rpcs');
      return sendJsonText(reply, 200, pageText(store.listRpcs(deviceId, page, rpcStatus), page, rpcJson));
    },
  };
}
