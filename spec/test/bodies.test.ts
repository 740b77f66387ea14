import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../load.js';
import { compile, describeErrors, type Validator } from '../schema-validator.js';

let contract: Contract;

beforeAll(async () => {
  contract = await loadContract();
});

function requestValidator(operationId: string): Validator {
  const body = contract.byId.get(operationId)?.requestBody;
  if (!body) throw new Error(`${operationId} has no request body`);
  return compile(body.schema);
}

function responseValidator(operationId: string, status = '200'): Validator {
  const schema = contract.byId.get(operationId)?.responses[status]?.schema;
  if (!schema) throw new Error(`${operationId} ${status} has no body schema`);
  return compile(schema);
}

function expectAccepted(validate: Validator, body: unknown): void {
  const ok = validate(body);
  expect(ok, `${JSON.stringify(body)} should pass: ${describeErrors(validate.errors).join('; ')}`).toBe(true);
}

function expectRejected(validate: Validator, body: unknown): void {
  expect(validate(body), `${JSON.stringify(body)} should fail`).toBe(false);
}

const nested = { gps: { lat: 52.1, lon: 4.3, fix: { sats: [1, 2, 3], ok: true } }, tags: [['a'], { b: null }] };

describe('telemetry upload (operation 1)', () => {
  it.each([
    ['form (a): an object of key-values', { temperature: 42.5, humidity: 73, active: true, name: 'x' }],
    ['form (b): an array of objects', [{ temperature: 42.5 }, { humidity: 73 }]],
    ['form (c): ts and values', { ts: 1451649600512, values: { temperature: 42.5 } }],
    ['an array mixing forms (a) and (c)', [{ a: 1 }, { ts: 1, values: { b: 2 } }]],
    ['{} (the connection test clients send)', {}],
    ['nested JSON values', nested],
    ['nested JSON values in form (c)', { ts: 1, values: nested }],
    ['a long, a double, a string and a boolean', { long: 73, double: 42.0, string: 'v', bool: false }],
  ])('accepts %s', (_name, body) => {
    expectAccepted(requestValidator('postTelemetry'), body);
  });

  it.each([
    ['a top-level number', 42],
    ['a top-level string', 'temperature'],
    ['null', null],
    ['a values that is not an object', { ts: 1, values: 5 }],
    ['a values that is an array', { ts: 1, values: [1] }],
    ['a ts that is not an integer', { ts: 'now', values: { a: 1 } }],
    ['an array with non-object elements', [1, 2]],
  ])('rejects %s', (_name, body) => {
    expectRejected(requestValidator('postTelemetry'), body);
  });
});

describe('attributes upload (operation 2)', () => {
  it('accepts an object of key-values, nested values included', () => {
    expectAccepted(requestValidator('postAttributes'), { attribute1: 'value1', attribute2: true, nested });
  });

  it.each([
    ['an array', [{ a: 1 }]],
    ['a number', 42],
  ])('rejects %s', (_name, body) => {
    expectRejected(requestValidator('postAttributes'), body);
  });
});

describe('attribute read response (operation 3)', () => {
  it.each([
    ['the client group', { client: { attribute1: 'value1' } }],
    ['both groups', { client: { a: 1 }, shared: { fw_version: '1.0.1' } }],
    ['nothing found', {}],
  ])('accepts %s', (_name, body) => {
    expectAccepted(responseValidator('getAttributes'), body);
  });

  it('rejects a group other than client and shared', () => {
    expectRejected(responseValidator('getAttributes'), { other: {} });
  });
});

describe('attribute update response (operation 4)', () => {
  it('accepts the flat object of changed keys with deleted', () => {
    expectAccepted(responseValidator('subscribeAttributes'), { k: 1, deleted: ['x'] });
  });

  it('accepts deleted alone', () => {
    expectAccepted(responseValidator('subscribeAttributes'), { deleted: ['x'] });
  });

  it('rejects an empty update', () => {
    expectRejected(responseValidator('subscribeAttributes'), {});
  });
});

describe('RPC request (operation 5)', () => {
  it('accepts {id, method, params}', () => {
    expectAccepted(responseValidator('subscribeRpc'), { id: 0, method: 'm', params: {} });
  });

  it('accepts an id carried as a string of digits (the specification allows it)', () => {
    expectAccepted(responseValidator('subscribeRpc'), { id: '7', method: 'm', params: {} });
  });

  it('rejects a request without id', () => {
    expectRejected(responseValidator('subscribeRpc'), { method: 'm', params: {} });
  });

  it.each([['a negative id', -1], ['an id that is not a number', 'abc'], ['a fractional id', 1.5]])('rejects %s', (_name, id) => {
    expectRejected(responseValidator('subscribeRpc'), { id, method: 'm', params: {} });
  });
});

describe('RPC reply (operation 6)', () => {
  it.each([[{ result: 'ok' }], [[1, 2]], ['text'], [42], [null]])('accepts any JSON document: %j', (body) => {
    expectAccepted(requestValidator('postRpcReply'), body);
  });
});

describe('client RPC (operation 7)', () => {
  it('accepts {method, params}', () => {
    expectAccepted(requestValidator('postClientRpc'), { method: 'getCurrentTime', params: {} });
  });

  it('rejects a request without params', () => {
    expectRejected(requestValidator('postClientRpc'), { method: 'getCurrentTime' });
  });

  it('rejects a request without method', () => {
    expectRejected(requestValidator('postClientRpc'), { params: {} });
  });
});

describe('claim (operation 8)', () => {
  it.each([
    ['{}', {}],
    ['secretKey and durationMs', { secretKey: 'value', durationMs: 60000 }],
  ])('accepts %s', (_name, body) => {
    expectAccepted(requestValidator('postClaim'), body);
  });

  it('rejects a durationMs that is not an integer', () => {
    expectRejected(requestValidator('postClaim'), { durationMs: 'x' });
  });
});

describe('provisioning (operation 9)', () => {
  const request = { deviceName: 'DW00000042', provisionDeviceKey: 'key', provisionDeviceSecret: 'secret' };

  it('accepts the request of the specification', () => {
    expectAccepted(requestValidator('postProvision'), request);
  });

  it('accepts the optional ThingsBoard fields', () => {
    expectAccepted(requestValidator('postProvision'), { ...request, credentialsType: 'ACCESS_TOKEN', token: 'tok', gateway: true });
  });

  it('rejects a request without provisionDeviceKey', () => {
    expectRejected(requestValidator('postProvision'), { deviceName: 'd', provisionDeviceSecret: 'secret' });
  });

  it.each([
    ['SUCCESS', { credentialsValue: 'sLzc0gDAZPkGMzFVTyUY', credentialsType: 'ACCESS_TOKEN', status: 'SUCCESS' }],
    ['NOT_FOUND', { errorMsg: 'Provision data was not found!', status: 'NOT_FOUND' }],
    ['FAILURE', { errorMsg: 'Failed to provision device!', status: 'FAILURE' }],
  ])('accepts the %s response', (_name, body) => {
    expectAccepted(responseValidator('postProvision'), body);
  });

  it('rejects a SUCCESS response without credentials', () => {
    expectRejected(responseValidator('postProvision'), { status: 'SUCCESS' });
  });
});

describe('the error body', () => {
  it('accepts ThingsBoard\'s error shape and rejects an empty object', () => {
    const validate = responseValidator('postTelemetry', '400');
    expectAccepted(validate, { status: 400, message: 'Invalid JSON body', errorCode: 31, timestamp: 1700000000000 });
    expectRejected(validate, {});
  });
});
