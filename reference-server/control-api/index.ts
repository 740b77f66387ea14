// The control API (ThingsBoard REST subset): issue 4 is building it. Until then the server has no
// control handlers and every control route answers 401 through this hook.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { errorBody, ErrorCode } from '../errors.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';

export interface ControlApi {
  handlers: Handlers;
  /** onRequest hook for secured routes: verifies the bearer JWT. */
  authenticate: onRequestHookHandler;
  /** Plugins the control API needs (multipart, Swagger UI), registered before the routes. */
  register(app: FastifyInstance): Promise<void>;
}

export function createControlApi(_ctx: ServerContext): ControlApi {
  return {
    handlers: {},
    authenticate: (_request, reply) => {
      reply.code(401).send(errorBody(401, ErrorCode.AUTHENTICATION, 'Authentication failed'));
    },
    register: async () => {},
  };
}
