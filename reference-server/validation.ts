// Request validation with the contract's own dialect (JSON Schema 2020-12). Path and query values
// arrive as strings and are coerced (`?timeout=500` -> 500, `sharedKeys=a` -> ["a"]); bodies are
// validated as sent, without coercion.
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorObject } from 'ajv';
import { createAjv } from '../spec/schema-validator.js';

type BodyValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

export function createBodyValidator(): FastifySchemaCompiler<unknown> {
  const bodies = createAjv({ allErrors: false });
  const strings = createAjv({ allErrors: false, coerceTypes: 'array', useDefaults: true });
  return ({ schema, httpPart }) => {
    if (httpPart !== 'body') return strings.compile(schema as object);
    const validate = bodies.compile(schema as object);
    // A required body that is missing was already refused (routes.ts); a missing optional body is
    // valid. Fastify hands a missing body to the validator as null.
    const optional: BodyValidator = (data) => {
      if (data === null || data === undefined) return true;
      const valid = validate(data);
      optional.errors = validate.errors;
      return valid;
    };
    return optional;
  };
}
