// ThingsBoard's device API binds a request before it checks the token (Spring resolves the
// controller's arguments first, DeviceApiController then validates the token): a path or query
// value that does not bind (`rpc/abc`, `timeout=xyz`, firmware without `title`) or a missing
// required body is 400 even with an unknown token. The body is bound as a String there, so a body
// that is not JSON still gets the 401. Checked only for unknown tokens, from the URL and the
// headers: no body is read to refuse a token.
import type { FastifyRequest } from 'fastify';
import { badRequest, validationFailed, type ApiError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation's request body is required (a missing one is 400). */
    bodyRequired?: boolean;
  }
}

const PARTS = [['params', 'params'], ['querystring', 'query']] as const;

/** As Node and Fastify decide it: no Transfer-Encoding and no or a zero Content-Length. */
function bodyMissing(request: FastifyRequest): boolean {
  const { headers } = request;
  return headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0');
}

/** The 400 ThingsBoard's binding would answer for this request, if any. */
export function bindingError(request: FastifyRequest): ApiError | undefined {
  for (const [part, field] of PARTS) {
    const validate = request.getValidationFunction(part);
    if (validate && !validate(request[field] as Record<string, unknown>)) return validationFailed(part, validate.errors ?? []);
  }
  if (request.routeOptions.config.bodyRequired && bodyMissing(request)) return badRequest('Required request body is missing');
  return undefined;
}
