// Request validation with the contract's own dialect (JSON Schema 2020-12). Path and query values
// arrive as strings and are coerced (`?timeout=500` -> 500, `sharedKeys=a` -> ["a"]); bodies are
// validated as sent, without coercion.
import type { FastifySchemaCompiler } from 'fastify';
import { createAjv } from '../spec/schema-validator.js';

export function createBodyValidator(): FastifySchemaCompiler<unknown> {
  const bodies = createAjv({ allErrors: false });
  const strings = createAjv({ allErrors: false, coerceTypes: 'array', useDefaults: true });
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodies : strings).compile(schema as object);
}
