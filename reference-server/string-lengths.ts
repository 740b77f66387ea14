// Path and query parameters with minLength/maxLength (every device call's access token). Ajv counts
// a string's length in code points, walking the whole string once per keyword, on every request. A
// string of u UTF-16 units has between ceil(u/2) and u code points, so when u <= maxLength and
// ceil(u/2) >= minLength both keywords pass whatever the string holds; the schema without them
// then gives the same verdict, coercions, defaults and errors (Ajv stops at the first keyword that
// fails, and these do not). Any other value goes through the whole schema.
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../spec/schema-validator.js';
import type { PartValidator } from './spring-binding.js';

/** A parameter whose length keywords `.length` can decide. */
interface Bound {
  name: string;
  min: number;
  max: number;
}

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** True when every bounded parameter present is a string whose unit count decides both keywords. */
function decidedByUnits(bounds: readonly Bound[], data: unknown): boolean {
  if (!isObject(data)) return false;
  for (let i = 0; i < bounds.length; i++) {
    const { name, min, max } = bounds[i];
    const value = data[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > max || (value.length + 1) >> 1 < min) return false;
  }
  return true;
}

/**
 * ajv.compile(schema) for an object of parameters, checking the length keywords of its string
 * parameters by `.length` where that decides them. A parameter with a default is left to Ajv (the
 * default is inserted, then checked).
 */
export function compileStringLengths(ajv: Ajv2020, schema: object): PartValidator {
  const full = ajv.compile(schema);
  const properties = (schema as JsonSchema).properties;
  if (!isObject(properties) || '$id' in schema) return full; // a copy may not take the same $id
  const bounds: Bound[] = [];
  const lenient: JsonSchema = {};
  for (const [name, p] of Object.entries(properties)) {
    if (!isObject(p) || p.type !== 'string' || p.default !== undefined || (p.minLength === undefined && p.maxLength === undefined)) continue;
    const { minLength = 0, maxLength = Infinity, ...rest } = p;
    if (typeof minLength !== 'number' || typeof maxLength !== 'number') continue;
    bounds.push({ name, min: minLength, max: maxLength });
    lenient[name] = rest;
  }
  if (bounds.length === 0) return full;
  const unbounded = ajv.compile({ ...schema, properties: { ...properties, ...lenient } });
  // Fastify hands Ajv's validators their parent (so that Ajv may replace the root value): kept.
  const validate = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    const checked = decidedByUnits(bounds, data) ? unbounded : full;
    const valid = checked(data, context);
    validate.errors = checked.errors;
    return valid;
  }) as PartValidator & { schemaEnv: unknown };
  validate.schemaEnv = full.schemaEnv;
  return validate;
}
