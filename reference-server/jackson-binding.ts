// Request bodies bound as ThingsBoard's Jackson binds its models (a Device, a Customer, a LoginRequest,
// ...), before the contract's schema checks them. With Jackson's defaults (ALLOW_COERCION_OF_SCALARS,
// ACCEPT_FLOAT_AS_INT) a String property takes a number or a boolean as its text, a long or int
// property a number in a string or a float (truncated), a boolean property 1/0 or "true"/"false", and
// "" or "null" in a string is null for a number or a boolean. A value that does not bind is left as it
// is, and the schema refuses it (400). The contract marks such bodies `x-tb-binding: jackson`; a
// JsonNode inside them (additionalInfo) has no type in the contract and takes any JSON as it is.
// Enums and UUIDs are not String properties in ThingsBoard's models: a number there stays a 400
// (Jackson would take an enum's index).
import { numberLiteral } from './json-lossless.js';

type Schema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  'x-tb-binding'?: string;
};

/** Binds a member's value (its literal as sent, for a number JSON.parse changed); returns the bound value. */
type Bind = (value: unknown, literal?: string) => unknown;

const LONG_RANGE = 2 ** 63;
const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Jackson's textual null for a number or a boolean: empty, or the word null. */
const textualNull = (text: string) => text === '' || text === 'null';

const bindString: Bind = (value, literal) =>
  typeof value === 'number' ? (literal ?? String(value)) : typeof value === 'boolean' ? String(value) : value;

const bindInteger: Bind = (value) => {
  if (typeof value === 'number') return Number.isInteger(value) || Math.abs(value) >= LONG_RANGE ? value : Math.trunc(value);
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (textualNull(text)) return null;
  return INTEGER_TEXT.test(text) ? Number(text) : value;
};

const bindNumber: Bind = (value) => {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (textualNull(text)) return null;
  return DECIMAL_TEXT.test(text) ? Number(text) : value;
};

/** StdDeserializer._parseBoolean: an int is false when 0; the text true or false in three cases. */
const BOOLEAN_TEXTS = new Map([['true', true], ['True', true], ['TRUE', true], ['false', false], ['False', false], ['FALSE', false]]);
const bindBoolean: Bind = (value) => {
  if (typeof value === 'number') return Number.isInteger(value) ? value !== 0 : value;
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (textualNull(text)) return null;
  return BOOLEAN_TEXTS.get(text) ?? value;
};

const SCALARS: Record<string, Bind> = { string: bindString, integer: bindInteger, number: bindNumber, boolean: bindBoolean };

/** The one scalar type of a property (null aside) that Jackson binds from other scalars, if any. */
function scalarBind(schema: Schema): Bind | undefined {
  if (schema.enum !== undefined || schema.const !== undefined || schema.format === 'uuid') return undefined;
  const types = (Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type]).filter((t) => t !== 'null');
  return types.length === 1 ? SCALARS[types[0]] : undefined;
}

/** Every schema a value must match at once (allOf), and the branches it may match (oneOf, anyOf). */
function parts(schema: Schema): Schema[] {
  return [schema, ...(schema.allOf ?? []).flatMap(parts), ...[...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].flatMap(parts)];
}

/** The binding of a value of this schema: members of objects and items of arrays, bound in place. */
function binderOf(schema: Schema, seen: Map<Schema, Bind | undefined>): Bind | undefined {
  if (seen.has(schema)) return seen.get(schema);
  seen.set(schema, undefined); // a schema that contains itself is not bound below itself
  const scalar = scalarBind(schema);
  if (scalar) return seen.set(schema, scalar).get(schema);
  const members = new Map<string, Bind>();
  let items: Bind | undefined;
  for (const part of parts(schema)) {
    for (const [name, member] of Object.entries(part.properties ?? {})) {
      const bind = binderOf(member, seen);
      if (bind && !members.has(name)) members.set(name, bind);
    }
    if (part.items && !items) items = binderOf(part.items, seen);
  }
  if (members.size === 0 && !items) return undefined;
  const bind: Bind = (value) => {
    if (Array.isArray(value)) {
      if (items) for (let i = 0; i < value.length; i++) value[i] = items(value[i], numberLiteral(value, i));
    } else if (value !== null && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      for (const [name, member] of members) {
        if (Object.hasOwn(object, name)) object[name] = member(object[name], numberLiteral(object, name));
      }
    }
    return value;
  };
  seen.set(schema, bind);
  return bind;
}

/**
 * The binding of a body schema that the contract marks `x-tb-binding: jackson`: it binds a body in
 * place (so that the handler sees it bound), before the schema validates it. Undefined when the schema
 * is not marked, or has nothing Jackson would coerce.
 */
export function jacksonBinding(schema: object): Bind | undefined {
  return (schema as Schema)['x-tb-binding'] === 'jackson' ? binderOf(schema as Schema, new Map()) : undefined;
}
