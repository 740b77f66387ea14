// Request validation with the contract's own dialect (JSON Schema 2020-12). Path and query values
// arrive as strings and are coerced (`sharedKeys=a` -> ["a"]; booleans and integers as Spring binds
// them, spring-binding.ts); bodies are validated as sent, but those ThingsBoard binds to its models
// with Jackson take its scalar coercions first (jackson-binding.ts).
import type { FastifySchemaCompiler } from 'fastify';
import { createAjv } from '../spec/schema-validator.js';
import { withSpringBinding, type PartValidator } from './spring-binding.js';
import { jacksonBinding } from './jackson-binding.js';
import { compileStringLengths } from './string-lengths.js';

export function createBodyValidator(): FastifySchemaCompiler<unknown> {
  const bodies = createAjv({ allErrors: false });
  const strings = createAjv({ allErrors: false, coerceTypes: 'array', useDefaults: true });
  return ({ schema, httpPart }) => {
    if (httpPart !== 'body') return withSpringBinding(schema as object, compileStringLengths(strings, schema as object));
    const validate = bodies.compile(schema as object);
    const bind = jacksonBinding(schema as object);
    // A required body that is missing was already refused (routes.ts); a missing optional body is
    // valid. Fastify hands a missing body to the validator as null.
    const optional: PartValidator = (data) => {
      if (data === null || data === undefined) return true;
      bind?.(data);
      const valid = validate(data);
      optional.errors = validate.errors;
      return valid;
    };
    return optional;
  };
}
