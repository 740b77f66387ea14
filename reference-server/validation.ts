// Request validation with the contract's own dialect (JSON Schema 2020-12). Path and query values
// arrive as strings and are coerced (`?timeout=500` -> 500, `sharedKeys=a` -> ["a"], query booleans
// as Spring binds them); bodies are validated as sent, without coercion.
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorObject } from 'ajv';
import { createAjv } from '../spec/schema-validator.js';

type BodyValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
type JsonSchema = { properties?: Record<string, { type?: unknown }> };

/** Spring's StringToBooleanConverter: trimmed, any case; an empty value is an absent one. */
const SPRING_BOOLEANS = new Map<string, boolean>([
  ['true', true], ['on', true], ['yes', true], ['1', true],
  ['false', false], ['off', false], ['no', false], ['0', false],
]);

/**
 * Query booleans bind as Spring binds them (`True`, `on`, `yes`, `1`...), ThingsBoard's clients rely
 * on it (the Python client sends `True`). The boolean parameters are found once, at compile time.
 */
function withSpringBooleans(schema: JsonSchema, validate: BodyValidator): BodyValidator {
  const names = Object.entries(schema.properties ?? {}).filter(([, p]) => p.type === 'boolean').map(([name]) => name);
  if (names.length === 0) return validate;
  const spring: BodyValidator = (data) => {
    const query = data as Record<string, unknown>;
    for (const name of names) {
      const raw = query[name];
      if (typeof raw !== 'string') continue;
      const text = raw.trim().toLowerCase();
      if (text === '') delete query[name];
      else if (SPRING_BOOLEANS.has(text)) query[name] = SPRING_BOOLEANS.get(text);
    }
    const valid = validate(data);
    spring.errors = validate.errors;
    return valid;
  };
  return spring;
}

export function createBodyValidator(): FastifySchemaCompiler<unknown> {
  const bodies = createAjv({ allErrors: false });
  const strings = createAjv({ allErrors: false, coerceTypes: 'array', useDefaults: true });
  return ({ schema, httpPart }) => {
    if (httpPart === 'querystring') return withSpringBooleans(schema as JsonSchema, strings.compile(schema as object));
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
