import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv, type JsonSchema } from '../../spec/schema-validator.js';
import { compileStringLengths } from '../string-lengths.js';
import { stopTestServer, type TestServer } from './helpers.js';
import { startAdminServer, type Api } from './control-helpers.js';

// The options of the server's path and query validators (validation.ts).
const OPTIONS = { allErrors: false, coerceTypes: 'array', useDefaults: true } as const;

const SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    t: { type: 'string', minLength: 2, maxLength: 3 },
    q: { type: 'string', maxLength: 4, pattern: '^a' },
    d: { type: 'string', maxLength: 2, default: 'abc' },
    n: { type: 'integer', minimum: 1 },
  },
  required: ['t'],
};

// '\u{1F600}' is one code point in two UTF-16 units.
const SMILE = '\u{1F600}';
const PARAMS: Record<string, unknown>[] = [
  { t: 'ab' }, { t: 'abc' }, { t: 'a' }, { t: 'abcd' }, { t: '' }, {},
  { t: SMILE }, { t: SMILE + SMILE }, { t: SMILE + 'a' }, { t: SMILE + SMILE + 'a' }, { t: SMILE + SMILE + SMILE + SMILE },
  { t: ['ab'] }, { t: ['a'] }, { t: 12 }, { t: 1 }, { t: null }, { t: true },
  { t: 'ab', q: 'abcd' }, { t: 'ab', q: 'abcde' }, { t: 'ab', q: 'bcd' }, { t: 'ab', q: SMILE + SMILE + SMILE },
  { t: 'ab', d: 'x' }, { t: 'ab', d: 'xyz' }, { t: 'ab', n: '0' }, { t: 'abcd', n: '0' }, { t: 'ab', n: 'x' },
];

/** Verdict, errors and the data as the validator leaves it (coercions, defaults). */
function outcome(validate: (data: unknown) => boolean, errors: () => unknown, params: Record<string, unknown>) {
  const data = structuredClone(params);
  const valid = validate(data);
  return { valid, errors: valid ? null : errors(), data };
}

describe('minLength/maxLength of string parameters decided by UTF-16 units where they decide', () => {
  it('accepts, refuses, coerces and fills in exactly as Ajv does, with the same errors', () => {
    const full = createAjv(OPTIONS).compile(SCHEMA);
    const byUnits = compileStringLengths(createAjv(OPTIONS), SCHEMA);
    expect(byUnits).not.toBe(full);
    for (const params of PARAMS) {
      expect(outcome(byUnits, () => byUnits.errors, params), JSON.stringify(params)).toEqual(outcome(full, () => full.errors, params));
    }
  });

  it('leaves a schema without length keywords on string parameters to Ajv as it is', () => {
    const ajv = createAjv(OPTIONS);
    for (const schema of [
      { type: 'object', properties: { n: { type: 'integer', maximum: 3 } } },
      { type: 'object', properties: { d: { type: 'string', maxLength: 2, default: 'abc' } } },
      { type: 'object' },
    ]) expect(compileStringLengths(ajv, schema)).toBe(ajv.compile(schema));
  });
});

describe('a length-limited query parameter over HTTP (POST /api/device?accessToken, at most 32)', () => {
  let server: TestServer;
  let api: Api;
  beforeAll(async () => ({ server, api } = await startAdminServer()));
  afterAll(() => stopTestServer(server));

  it('counts code points: 17 two-unit characters pass, 33 characters are refused with Ajv\'s text', async () => {
    const long = await api('POST', `/api/device?accessToken=${'a'.repeat(33)}`, { name: 'dev-long-token' });
    expect(long.status).toBe(400);
    expect((long.json() as { message: string }).message).toBe('Invalid querystring: querystring/accessToken must NOT have more than 32 characters');
    const wide = await api('POST', `/api/device?accessToken=${encodeURIComponent(SMILE.repeat(17))}`, { name: 'dev-wide-token' });
    expect(wide.status).toBe(200);
    expect(server.ctx.store.deviceByToken(SMILE.repeat(17))?.name).toBe('dev-wide-token');
  });
});
