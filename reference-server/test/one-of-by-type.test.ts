import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv, type JsonSchema } from '../../spec/schema-validator.js';
import { loadContract } from '../../spec/load.js';
import { compileOneOfByType } from '../one-of-by-type.js';
import { validationFailed } from '../errors.js';
import { parseJsonBody } from '../json-body.js';
import { call, createDevice, startTestServer, stopTestServer, type TestServer } from './helpers.js';

/** The verdict and errors of a validator for a value (errors only when it refuses). */
function verdict(validate: ReturnType<typeof compileOneOfByType>, value: unknown) {
  const valid = validate(value);
  return { valid, errors: valid ? null : validate.errors };
}

/** Ajv's own validator of the schema against compileOneOfByType's, from separate Ajv instances. */
function pair(schema: JsonSchema, options = {}) {
  const ajv = createAjv({ allErrors: false, ...options });
  return { full: createAjv({ allErrors: false, ...options }).compile(schema), byType: compileOneOfByType(ajv, schema), plain: ajv.compile(schema) };
}

const SCALARS: JsonSchema = {
  description: 'disjoint types',
  oneOf: [
    { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } },
    { type: ['string', 'null'], minLength: 2 },
    { type: 'integer', minimum: 0, nullable: false },
    { type: 'array', items: { type: 'boolean' } },
  ],
};
const VALUES: unknown[] = [
  { a: 1 }, { a: 1.5 }, {}, { b: 1 }, 'xy', 'x', '', null, 0, 7, -1, 2.5, true, false, [], [true, false], [true, 1], [[]],
];

describe('a oneOf of disjoint JSON types checked by the branch of the value', () => {
  it('accepts and refuses exactly what the whole schema does, with the same errors', () => {
    const { full, byType, plain } = pair(SCALARS);
    expect(byType).not.toBe(plain);
    for (const value of VALUES) expect(verdict(byType, value), JSON.stringify(value)).toEqual(verdict(full, value));
  });

  it('takes Ajv\'s `nullable` as admitting null, as Ajv does', () => {
    const schema = { oneOf: [{ type: 'object', nullable: true, required: ['a'] }, { type: 'string' }] };
    const { full, byType, plain } = pair(schema);
    expect(byType).not.toBe(plain);
    for (const value of [null, { a: 1 }, {}, 's', 1, []]) expect(verdict(byType, value)).toEqual(verdict(full, value));
  });

  it.each([
    ['branches that share a type', { oneOf: [{ type: 'object', required: ['a'] }, { type: 'object', required: ['b'] }] }],
    ['integer and number', { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 10 }] }],
    ['a branch without a type', { oneOf: [{ type: 'object' }, { minimum: 1 }] }],
    ['a constraint beside the oneOf', { oneOf: [{ type: 'object' }, { type: 'array' }], minProperties: 1 }],
    ['a $ref left in a branch', { oneOf: [{ type: 'object' }, { type: 'array', items: { $ref: '#/oneOf/0' } }] }],
    ['no oneOf', { type: 'object' }],
  ])('leaves a schema with %s to Ajv as it is', (_what, schema) => {
    const { byType, plain } = pair(schema as JsonSchema);
    expect(byType).toBe(plain);
  });

  it('leaves the schema to Ajv when Ajv changes the data (defaults, coercion)', () => {
    const { byType, plain } = pair(SCALARS, { useDefaults: true });
    expect(byType).toBe(plain);
  });
});

describe('telemetry bodies (TelemetryUpload: an object or an array of them) over HTTP', () => {
  let server: TestServer;
  let token: string;
  let full: (data: unknown) => boolean;
  let errors: () => Parameters<typeof validationFailed>[1];
  beforeAll(async () => {
    server = await startTestServer();
    token = (await createDevice(server.ctx)).token;
    const schema = (await loadContract()).byId.get('postTelemetry')!.requestBody!.schema;
    const validate = createAjv({ allErrors: false }).compile(schema);
    full = validate;
    errors = () => validate.errors ?? [];
  });
  afterAll(async () => {
    await stopTestServer(server);
  });

  const BODIES = [
    '{"pulseCounter":1,"leakage":false,"batteryLevel":87.5}',
    '{"ts":1451649600512,"values":{"a":1}}',
    '{"ts":1451649600512}',
    '{"ts":1.5,"values":{"a":1}}',
    '{"ts":1e300,"values":{"a":1}}',
    '{"ts":"x","values":{"a":1}}',
    '{"ts":1,"values":[1]}',
    '{"ts":1,"values":3}',
    '[{"a":1},{"ts":1451649600512,"values":{"b":true}}]',
    '[]',
    '[1]',
    '[{"a":1},"x"]',
    '[{"ts":1,"values":"v"}]',
    '[[{"a":1}]]',
    '42',
    '42.0',
    '"text"',
    'true',
  ];

  it('accepts what the whole schema accepts and refuses the rest with its own error text', async () => {
    for (const body of BODIES) {
      const res = await call(server.httpUrl, 'POST', `/api/v1/${token}/telemetry`, body);
      if (full(parseJsonBody(body))) {
        expect(res.status, body).toBe(200);
      } else {
        expect({ status: res.status, message: res.json().message }, body).toEqual({ status: 400, message: validationFailed('body', errors()).message });
      }
    }
  });
});
