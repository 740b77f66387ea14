// Query and path values bound as Spring MVC binds them in ThingsBoard's controllers, before the contract's
// schema checks them: booleans as StringToBooleanConverter reads them, int and long parameters as
// NumberUtils.parseNumber reads them. A value that does not bind is a 400, as Spring's
// MethodArgumentTypeMismatchException is; Ajv's own coercion would take `1e308` or `1.0` as integers.
import type { ErrorObject } from 'ajv';

export type PartValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
type ParamSchema = { type?: unknown; format?: unknown };
type JsonSchema = { properties?: Record<string, ParamSchema> };

/** Spring's StringToBooleanConverter: trimmed, any case. */
const SPRING_BOOLEANS = new Map<string, boolean>([
  ['true', true], ['on', true], ['yes', true], ['1', true],
  ['false', false], ['off', false], ['no', false], ['0', false],
]);

const WHITESPACE = /\s/g;
const DECIMAL_DIGITS = /^\d+$/;
const HEX_DIGITS = /^[0-9a-fA-F]+$/;
const RANGES = { int32: 2n ** 31n, int64: 2n ** 63n } as const;
type IntegerFormat = keyof typeof RANGES;

/**
 * NumberUtils.parseNumber for Integer and Long: every whitespace character removed, then an
 * optional sign and decimal digits (Long.valueOf), or `0x`, `0X` or `#` and hex digits after an
 * optional minus (Long.decode); within the type's range. Undefined when it does not bind.
 */
export function springInteger(raw: string, format: IntegerFormat): number | undefined {
  const text = raw.replace(WHITESPACE, '');
  const negative = text.charCodeAt(0) === 0x2d;
  const from = negative ? 1 : 0;
  let digits: string;
  let hex = true;
  if (text.startsWith('0x', from) || text.startsWith('0X', from)) digits = text.slice(from + 2);
  else if (text.startsWith('#', from)) digits = text.slice(from + 1);
  else {
    hex = false;
    digits = text.slice(negative || text.charCodeAt(0) === 0x2b ? 1 : 0);
  }
  if (!(hex ? HEX_DIGITS : DECIMAL_DIGITS).test(digits)) return undefined;
  if (!hex && digits.length <= 9) return negative ? -Number(digits) : Number(digits);
  const value = BigInt(hex ? `0x${digits}` : digits);
  const limit = RANGES[format];
  return (negative ? value <= limit : value < limit) ? Number(negative ? -value : value) : undefined;
}

const integerFormat = (p: ParamSchema): IntegerFormat | undefined =>
  p.type === 'integer' ? (p.format === 'int32' ? 'int32' : 'int64') : undefined;

/**
 * Wraps a query or path validator so that the parameters bind as in Spring first. An empty value is an
 * absent one (Spring then uses the default). The parameters are found once, at compile time.
 */
export function withSpringBinding(schema: object, validate: PartValidator): PartValidator {
  const params = Object.entries((schema as JsonSchema).properties ?? {});
  const booleans = params.filter(([, p]) => p.type === 'boolean').map(([name]) => name);
  const integers = params.flatMap(([name, p]) => {
    const format = integerFormat(p);
    return format ? [{ name, format }] : [];
  });
  if (booleans.length === 0 && integers.length === 0) return validate;
  const spring: PartValidator = (data) => {
    const query = data as Record<string, unknown>;
    for (const name of booleans) {
      const raw = query[name];
      if (typeof raw !== 'string') continue;
      const text = raw.trim().toLowerCase();
      if (text === '') delete query[name];
      else if (SPRING_BOOLEANS.has(text)) query[name] = SPRING_BOOLEANS.get(text);
    }
    for (const { name, format } of integers) {
      const raw = query[name];
      if (typeof raw !== 'string') continue;
      if (raw.trim() === '') {
        delete query[name];
        continue;
      }
      const bound = springInteger(raw, format);
      if (bound === undefined) {
        const type = format === 'int32' ? 'int' : 'long';
        spring.errors = [{ instancePath: `/${name}`, schemaPath: '#/type', keyword: 'type', params: { type }, message: `must be a Java ${type} (got ${JSON.stringify(raw.slice(0, 40))})` }];
        return false;
      }
      query[name] = bound;
    }
    const valid = validate(data);
    spring.errors = validate.errors;
    return valid;
  };
  return spring;
}
