// A body schema whose root is a `oneOf` of branches for disjoint JSON types (TelemetryUpload: an
// object or an array of them) is checked against the one branch the body's type selects. Ajv's
// compiled oneOf runs every branch, and the branches of the other types fail and build their error
// objects, on every valid body too. Only a branch of the body's type can pass, so the body is valid
// iff that branch passes; when it does not, the whole schema runs again so that the errors (and
// so every error response) are Ajv's own.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { PartValidator } from './spring-binding.js';

type Branch = PartValidator | undefined;

/** The branch (if any) that can accept a value of each JSON type. */
interface ByType {
  object: Branch;
  array: Branch;
  string: Branch;
  number: Branch;
  boolean: Branch;
  null: Branch;
}

/** Root keywords that do not constrain a value (annotations and OpenAPI's extensions). */
const ANNOTATIONS = new Set(['description', 'title', '$comment', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly']);
/** The JSON type whose values a `type` name admits (integer: a number). */
const KINDS: Record<string, keyof ByType> = {
  object: 'object', array: 'array', string: 'string', number: 'number', integer: 'number', boolean: 'boolean', null: 'null',
};
/** Keywords that make a branch mean something else once compiled apart from its root. */
const ROOT_RELATIVE = new Set(['$ref', '$dynamicRef', '$recursiveRef', '$id', '$anchor', '$dynamicAnchor', '$async']);

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON types a branch admits (its root `type`, with Ajv's `nullable`); undefined when it does not say. */
function kindsOf(branch: Schema): (keyof ByType)[] | undefined {
  const types: unknown[] = typeof branch.type === 'string' ? [branch.type] : Array.isArray(branch.type) ? [...branch.type] : [];
  if (types.length === 0) return undefined;
  if (branch.nullable === true) types.push('null');
  const kinds = types.map((t) => (typeof t === 'string' ? KINDS[t] : undefined));
  return kinds.every((k) => k !== undefined) ? kinds as (keyof ByType)[] : undefined;
}

/** True when the schema holds a keyword resolved against its document root (a $ref not dereferenced). */
function rootRelative(schema: unknown, seen = new Set<unknown>()): boolean {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return false;
  seen.add(schema);
  if (Array.isArray(schema)) return schema.some((s) => rootRelative(s, seen));
  return Object.entries(schema).some(([key, value]) => ROOT_RELATIVE.has(key) || rootRelative(value, seen));
}

/** The branch per JSON type; undefined unless the schema is such a oneOf and Ajv leaves the data as sent. */
function branchesByType(ajv: Ajv2020, schema: unknown): ByType | undefined {
  const { useDefaults, coerceTypes, removeAdditional } = ajv.opts;
  if (useDefaults || coerceTypes || removeAdditional || !isObject(schema) || !Array.isArray(schema.oneOf)) return undefined;
  if (Object.keys(schema).some((key) => key !== 'oneOf' && !ANNOTATIONS.has(key) && !key.startsWith('x-'))) return undefined;
  const byType: ByType = { object: undefined, array: undefined, string: undefined, number: undefined, boolean: undefined, null: undefined };
  for (const branch of schema.oneOf as unknown[]) {
    const kinds = isObject(branch) && !rootRelative(branch) ? kindsOf(branch) : undefined;
    if (!kinds || kinds.some((k) => byType[k] !== undefined)) return undefined;
    const validate = ajv.compile(branch as Schema) as PartValidator;
    for (const k of kinds) byType[k] = validate;
  }
  return byType;
}

/** The branch a value's JSON type selects. */
function branchFor(byType: ByType, data: unknown): Branch {
  if (data === null) return byType.null;
  if (Array.isArray(data)) return byType.array;
  switch (typeof data) {
    case 'object': return byType.object;
    case 'string': return byType.string;
    case 'number': return byType.number;
    case 'boolean': return byType.boolean;
    default: return undefined;
  }
}

/** ajv.compile(schema), checking a oneOf of disjoint JSON types by its one branch for the value. */
export function compileOneOfByType(ajv: Ajv2020, schema: object): PartValidator {
  const full = ajv.compile(schema) as PartValidator;
  const byType = branchesByType(ajv, schema);
  if (!byType) return full;
  const validate: PartValidator = (data) => {
    if (branchFor(byType, data)?.(data) === true) {
      validate.errors = null;
      return true;
    }
    const valid = full(data);
    validate.errors = full.errors;
    return valid;
  };
  return validate;
}
