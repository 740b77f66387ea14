// The error catalogue of the reference server and its one error handler. Every error except a
// long-poll timeout answers ThingsBoard's error body {status, message, errorCode, timestamp}.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DeletedMeanwhile, StoreUnavailable } from './store/types.js';

/** ThingsboardErrorCode values. */
export const ErrorCode = {
  GENERAL: 2,
  AUTHENTICATION: 10,
  PERMISSION_DENIED: 20,
  BAD_REQUEST_PARAMS: 31,
  ITEM_NOT_FOUND: 32,
  TOO_MANY_REQUESTS: 33,
  VERSION_CONFLICT: 35,
  /** ThingsBoard answers its database errors with this code (500 "Database error"). */
  DATABASE: 46,
} as const;

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorCode: number,
    message: string,
    /** A body to send instead of the error body (ThingsBoard's bare "FAILURE" strings). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, ErrorCode.BAD_REQUEST_PARAMS, message);
export const unauthorized = (message: string) => new ApiError(401, ErrorCode.AUTHENTICATION, message);
export const forbidden = (message: string) => new ApiError(403, ErrorCode.PERMISSION_DENIED, message);
export const notFound = (message: string) => new ApiError(404, ErrorCode.ITEM_NOT_FOUND, message);
export const payloadTooLarge = (limit: number) =>
  new ApiError(413, ErrorCode.BAD_REQUEST_PARAMS, `Payload size exceeds the limit of ${limit} bytes`);

/** Seconds a client is told to wait (Retry-After) when the store cannot take writes. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** The 503 of a request that arrives while the server drains, or is still open at its deadline. */
export const SHUTTING_DOWN = 'Server is shutting down';

export function errorBody(status: number, errorCode: number, message: string | null) {
  return { status, message, errorCode, timestamp: Date.now() };
}

/** A part of the request (body, querystring, params) that its schema refuses: 400 naming each problem. */
export function validationFailed(where: string, problems: readonly { instancePath?: string; message?: string }[]): ApiError {
  const detail = problems.map((v) => `${where}${v.instancePath || ''} ${v.message ?? 'is invalid'}`.trim()).join('; ');
  return badRequest(`Invalid ${where}: ${detail}`);
}

/** Fastify's own client errors (body parsing, validation, limits) as ThingsBoard error codes. */
function fromFastify(error: FastifyError, request: FastifyRequest): ApiError | undefined {
  if (error.validation) return validationFailed(error.validationContext ?? 'request', error.validation);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(request.routeOptions.bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, ErrorCode.BAD_REQUEST_PARAMS, error.message);
    default:
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return new ApiError(error.statusCode, ErrorCode.BAD_REQUEST_PARAMS, error.message);
      }
      return undefined;
  }
}

/**
 * A store that cannot take writes for now (a full disk, an I/O error): 503 with Retry-After, a
 * condition that passes rather than a bug (ThingsBoard answers its database errors 500, errorCode 46).
 * A write that names a row deleted while the request was on its way (a device deleted during its
 * telemetry upload): the device's token is no longer valid (401, as for any unknown token); on the
 * control API the referenced entity is gone (404).
 */
function fromStore(error: FastifyError, request: FastifyRequest): ApiError | undefined {
  if (error instanceof StoreUnavailable) {
    return new ApiError(503, ErrorCode.DATABASE, `The store cannot take writes: ${error.message}. Nothing of this request was stored; retry later`);
  }
  if (!(error instanceof DeletedMeanwhile) && (error as { code?: string }).code !== 'SQLITE_CONSTRAINT_FOREIGNKEY') return undefined;
  return request.device ? unauthorized('Invalid access token') : notFound('A referenced entity was deleted meanwhile');
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const api = error instanceof ApiError ? error : (fromFastify(error, request) ?? fromStore(error, request));
  if (!api) {
    request.log.error({ err: error }, 'unexpected error');
    reply.code(500).send(errorBody(500, ErrorCode.GENERAL, 'Internal server error'));
    return;
  }
  reply.code(api.statusCode);
  if (error instanceof StoreUnavailable) reply.header('retry-after', STORE_RETRY_AFTER_SECONDS);
  if (api.body !== undefined) reply.send(api.body);
  else reply.send(errorBody(api.statusCode, api.errorCode, api.message));
}
