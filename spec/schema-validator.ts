// One Ajv (JSON Schema draft 2020-12, the dialect of OpenAPI 3.1) for everything that checks
// documents against the contract: tests, the conformance suite, the simulator's scenario files.
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from './load.js';

// Both packages are CommonJS with a default export; under NodeNext the class sits on .default.
const Ajv2020 = (Ajv2020Module as unknown as { default: typeof Ajv2020Module }).default ?? Ajv2020Module;
const addFormats = (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;

export type Validator = ValidateFunction;

export function createAjv(): InstanceType<typeof Ajv2020> {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  // OpenAPI's own formats: annotations, as far as JSON types go.
  for (const name of ['int32', 'int64', 'binary', 'double', 'float']) ajv.addFormat(name, true);
  return ajv;
}

/** Human-readable, one line per problem: `/values must be object`. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}`);
}

export function compile(schema: JsonSchema): Validator {
  return sharedAjv().compile(schema);
}

let shared: InstanceType<typeof Ajv2020> | undefined;
function sharedAjv(): InstanceType<typeof Ajv2020> {
  shared ??= createAjv();
  return shared;
}
