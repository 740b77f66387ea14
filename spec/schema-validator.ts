// One Ajv setup (JSON Schema draft 2020-12, the dialect of OpenAPI 3.1) for everything that checks
// documents against the contract: the server's request validation, tests, the conformance suite.
import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import * as formats from 'ajv-formats';
import type { FormatsPlugin } from 'ajv-formats';

// ajv-formats is CommonJS; from ESM its plugin function is the namespace's default.
const addFormats = formats.default as unknown as FormatsPlugin;

export type JsonSchema = Record<string, unknown>;
export type Validator = ValidateFunction;

export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true, ...options });
  addFormats(ajv);
  // OpenAPI's own formats: annotations, as far as JSON types go.
  for (const name of ['int32', 'int64', 'binary', 'double', 'float']) ajv.addFormat(name, true);
  return ajv;
}

/** Human-readable, one line per problem: `/values must be object`. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}`);
}

let shared: Ajv2020 | undefined;

/** Compile with the shared instance (compile once, validate many times). */
export function compile(schema: JsonSchema): Validator {
  shared ??= createAjv();
  return shared.compile(schema);
}
