// The handler shape shared by the device and control APIs: one function per operationId, its
// request typed from the contract (spec/types.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeviceRecord, Written } from './store/types.js';
import type { Body, OperationId, PathParams, Query } from '../spec/types.js';
import type { operations } from '../spec/contract-types.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The device authenticated by the access token in the path (device API routes only). */
    device: DeviceRecord;
    /** The body text as received (JSON bodies); the RPC reply is passed on as these bytes. */
    rawBody: string | null;
  }
}

/** A part the operation does not have is unknown to its handler. */
type Part<T> = [T] extends [never] ? unknown : T;
/** Fastify hands a missing optional body over as null or undefined. */
type BodyPart<Id extends OperationId> = undefined extends operations[Id]['requestBody'] ? Part<Body<Id>> | null | undefined : Body<Id>;

/**
 * The request parts of an operation. The route validates them with the operation's own schemas
 * (routes.ts) before the handler runs, so the handler may rely on these types.
 */
export type RouteOf<Id extends OperationId> = Id extends OperationId
  ? { Body: BodyPart<Id>; Querystring: Part<Query<Id>>; Params: Part<PathParams<Id>> }
  : never;

/** `in`: a handler of several operations (`Handler<'a' | 'b'>`) serves each of them. */
export type Handler<in Id extends OperationId> = (request: FastifyRequest<RouteOf<Id>>, reply: FastifyReply) => unknown;
export type Handlers = { [Id in OperationId]?: Handler<Id> };
/** Any handler, as Fastify registers it. */
export type RouteHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** Send JSON text as it is: Fastify does not serialise a string sent as application/json. */
export function sendJsonText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(text);
}

/** Send any JSON document, strings and null included (Fastify would send a bare string as text). */
export function sendJson(reply: FastifyReply, status: number, value: unknown): FastifyReply {
  return sendJsonText(reply, status, JSON.stringify(value));
}

/** Answers a write 200 with no body once it is durable, or with its error (store.writeTelemetry's callback). */
export const replyWritten: Written<FastifyReply> = (error, reply) => {
  if (error) reply.send(error);
  else reply.code(200).send();
};
