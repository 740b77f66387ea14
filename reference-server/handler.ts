// The handler shape shared by the device and control APIs: one function per operationId.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeviceRecord } from './store/types.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The device authenticated by the access token in the path (device API routes only). */
    device: DeviceRecord;
    /** The body text as received (JSON bodies); the RPC reply is passed on as these bytes. */
    rawBody: string | null;
  }
}

export type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;
export type Handlers = Record<string, Handler>;

/** Send JSON text as it is: Fastify does not serialise a string sent as application/json. */
export function sendJsonText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(text);
}

/** Send any JSON document, strings and null included (Fastify would send a bare string as text). */
export function sendJson(reply: FastifyReply, status: number, value: unknown): FastifyReply {
  return sendJsonText(reply, status, JSON.stringify(value));
}
