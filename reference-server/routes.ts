// One Fastify route per contract operation: URL, request validation and response serialisation
// all come from the OpenAPI document; the handler comes from the operationId.
import type { FastifyInstance, onRequestHookHandler, preValidationHookHandler, RouteShorthandOptions } from 'fastify';
import type { Contract, Operation } from '../spec/load.js';
import { pathRegex } from '../spec/path-template.js';
import type { JsonSchema } from '../spec/schema-validator.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { badRequest } from './errors.js';
import { limitFor } from './payload-limits.js';
import type { PayloadLimit } from './config.js';
import type { Handlers, RouteHandler } from './handler.js';
import type { OperationId } from '../spec/types.js';

export interface RouteHooks {
  /** onRequest hook for operations with an access token in the path, by operation. */
  device: (operationId: string) => onRequestHookHandler;
  /** onRequest hook for operations that declare `security` (the control API). */
  user: onRequestHookHandler;
}

export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function objectSchema(params: OpenAPIV3_1.ParameterObject[]): JsonSchema | undefined {
  if (params.length === 0) return undefined;
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema ?? {}])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

/**
 * fast-json-stringify serialises free-form unions (the key-value value: any JSON type) best as
 * "any"; every other part of the response schemas is kept.
 */
function forSerializer(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forSerializer);
  if (!schema || typeof schema !== 'object') return schema;
  const s = schema as JsonSchema;
  if (Array.isArray(s.type) && s.type.includes('object')) return {};
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, k === 'examples' || k === 'example' ? undefined : forSerializer(v)]).filter(([, v]) => v !== undefined));
}

function responseSchemas(op: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(op.responses)) {
    if (response.contentType === 'application/json' && response.schema) out[status] = forSerializer(response.schema);
  }
  return out;
}

// The body validators let null through (it is how Fastify passes a missing optional body), so a
// required body is checked here, before validation.
const requireBody: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined) done(badRequest('Required request body is missing'));
  else if (request.body === null) done(badRequest('Invalid body: null is not an accepted body'));
  else done();
};

export function registerRoutes(
  app: FastifyInstance,
  operations: Operation[],
  handlers: Handlers,
  hooks: RouteHooks,
  limits: readonly PayloadLimit[],
): void {
  for (const op of operations) {
    // The route's schemas below are the operation's: its handler's request types hold once they pass.
    const handler = handlers[op.operationId as OperationId] as RouteHandler | undefined;
    if (!handler) throw new Error(`no handler for operation ${op.operationId}`);
    const json = op.requestBody?.contentType === 'application/json';
    const schema = {
      params: objectSchema(op.pathParams),
      querystring: objectSchema(op.queryParams),
      body: json ? op.requestBody!.schema : undefined,
      response: responseSchemas(op),
    };
    const options: RouteShorthandOptions = {
      // Parts the operation does not have are left out, not set to undefined (Fastify warns).
      schema: Object.fromEntries(Object.entries(schema).filter(([, part]) => part !== undefined)),
      bodyLimit: limitFor(op.path, limits),
      onRequest: op.pathParams.some((p) => p.name === 'accessToken') ? hooks.device(op.operationId) : op.secured ? hooks.user : undefined,
      preValidation: op.requestBody?.required ? requireBody : undefined,
      config: { bodyRequired: op.requestBody?.required === true },
    };
    app.route({ method: op.method.toUpperCase() as 'GET', url: fastifyPath(op.path), ...options, handler });
  }
}

/** For 405: which methods the contract has for a concrete URL path. Regexes built once at boot. */
export function methodsByPath(contract: Contract): (url: string) => string[] | undefined {
  const table = new Map<string, { re: RegExp; methods: string[] }>();
  for (const op of contract.operations) {
    let row = table.get(op.path);
    if (!row) {
      table.set(op.path, (row = { re: pathRegex(op.path), methods: [] }));
    }
    row.methods.push(op.method.toUpperCase());
  }
  const rows = [...table.values()];
  return (url) => {
    const path = url.split('?')[0];
    const methods = rows.filter((r) => r.re.test(path)).flatMap((r) => r.methods);
    return methods.length > 0 ? [...new Set(methods)] : undefined;
  };
}
