// Operations 5 (server RPC long poll), 6 (the device's reply) and 7 (device-side RPC to a rule).
import { pollTimeout } from './poll-timeout.js';
import { sendJsonText, type Handlers } from '../handler.js';
import { memberText } from '../json-text.js';
import type { ServerContext } from '../context.js';

export function rpcHandlers({ config, polls, rpc, rules }: ServerContext): Handlers {
  return {
    subscribeRpc(request, reply) {
      // A command issued while no poll was open is answered at once.
      if (!rpc.deliverQueued(request.device.id, reply)) {
        polls.wait('rpc', request.device.id, reply, pollTimeout(request.query.timeout, config));
      }
      // Nothing returned: the reply is sent later, and a returned reply would make Fastify watch
      // its end with listeners and closures (reply.then) on every poll.
    },

    async postRpcReply(request, reply) {
      const { requestId } = request.params;
      // Passed on as the bytes the device sent (ThingsBoard keeps the reply text).
      await rpc.reply(request.device.id, requestId, request.rawBody!);
      return reply.code(200).send();
    },

    postClientRpc(request, reply) {
      const { body } = request;
      const answer = rules.reply(body.method, memberText(body, 'params'));
      if (answer !== undefined) return sendJsonText(reply, 200, answer);
      polls.wait('clientRpc', request.device.id, reply, config.clientRpcTimeoutMs);
    },
  };
}
