// The handler shape shared by the device and control APIs: one function per operationId.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeviceRecord } from './store/types.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The device authenticated by the access token in the path (device API routes only). */
    device: DeviceRecord;
  }
}

export type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;
export type Handlers = Record<string, Handler>;

/** Send any JSON document, strings and null included (Fastify would send a bare string as text). */
export function sendJson(reply: FastifyReply, status: number, value: unknown): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(value));
}
