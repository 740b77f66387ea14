import { beforeAll, describe, expect, it } from 'vitest';
import { deviceOperations, loadContract, type Contract, type Operation } from '../load.js';

// The specification's endpoint table: x-dhi-op -> method and path. /software is the twin of 10.
const ENDPOINTS: { op: number; method: string; path: string }[] = [
  { op: 1, method: 'post', path: '/api/v1/{accessToken}/telemetry' },
  { op: 2, method: 'post', path: '/api/v1/{accessToken}/attributes' },
  { op: 3, method: 'get', path: '/api/v1/{accessToken}/attributes' },
  { op: 4, method: 'get', path: '/api/v1/{accessToken}/attributes/updates' },
  { op: 5, method: 'get', path: '/api/v1/{accessToken}/rpc' },
  { op: 6, method: 'post', path: '/api/v1/{accessToken}/rpc/{requestId}' },
  { op: 7, method: 'post', path: '/api/v1/{accessToken}/rpc' },
  { op: 8, method: 'post', path: '/api/v1/{accessToken}/claim' },
  { op: 9, method: 'post', path: '/api/v1/provision' },
  { op: 10, method: 'get', path: '/api/v1/{accessToken}/firmware' },
  { op: 10, method: 'get', path: '/api/v1/{accessToken}/software' },
];

const PROVISIONING = 9;

let contract: Contract;
let errorSchema: unknown;

beforeAll(async () => {
  contract = await loadContract();
  errorSchema = contract.document.components?.schemas?.Error;
});

function find(method: string, path: string): Operation | undefined {
  return contract.operations.find((o) => o.method === method && o.path === path);
}

function expectErrorBody(operation: Operation, status: string): void {
  const where = `${operation.operationId} ${status}`;
  const response = operation.responses[status];
  expect(response, `${where} is documented`).toBeDefined();
  expect(response.contentType, `${where} content type`).toBe('application/json');
  expect(response.schema, `${where} schema`).toEqual(errorSchema);
}

describe('the OpenAPI contract', () => {
  it('validates and dereferences through loadContract()', () => {
    expect(contract.document.openapi).toMatch(/^3\.1\./);
    expect(contract.operations.length).toBeGreaterThan(ENDPOINTS.length);
    expect(errorSchema).toBeDefined();
    // Dereferenced: no $ref is left anywhere in the operations.
    expect(JSON.stringify(contract.operations)).not.toContain('"$ref"');
  });

  it('is loaded once per process', async () => {
    expect(await loadContract()).toBe(contract);
  });

  it('has unique operationIds, all indexed in byId', () => {
    const ids = contract.operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(contract.byId.get(id)?.operationId).toBe(id);
  });

  it.each(ENDPOINTS)('has device operation $op as $method $path', ({ op, method, path }) => {
    const operation = find(method, path);
    expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined();
    expect(operation!.tags).toContain('device');
    expect(operation!.op).toBe(op);
  });

  it('has exactly the ten device operations plus the software twin, in specification order', () => {
    const device = deviceOperations(contract);
    expect(device.map((o) => `${o.op} ${o.method} ${o.path}`).sort()).toEqual(
      ENDPOINTS.map((e) => `${e.op} ${e.method} ${e.path}`).sort(),
    );
    expect(device.map((o) => o.op)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10]);
  });

  it('takes the access token as a required path parameter on every device operation but provisioning', () => {
    for (const operation of deviceOperations(contract)) {
      const token = operation.pathParams.find((p) => p.name === 'accessToken');
      if (operation.op === PROVISIONING) {
        expect(token, operation.operationId).toBeUndefined();
        expect(operation.path).not.toContain('{accessToken}');
      } else {
        expect(token, operation.operationId).toBeDefined();
        expect(token!.required, operation.operationId).toBe(true);
        expect(operation.path.startsWith('/api/v1/{accessToken}/'), operation.operationId).toBe(true);
      }
    }
  });

  it('documents 400 with the error body on every device operation, and 401 on all but provisioning', () => {
    for (const operation of deviceOperations(contract)) {
      expectErrorBody(operation, '400');
      if (operation.op === PROVISIONING) expect(operation.responses['401'], operation.operationId).toBeUndefined();
      else expectErrorBody(operation, '401');
    }
  });

  it('documents 400 or 401 with the error body on every control operation', () => {
    const control = contract.operations.filter((o) => o.tags.includes('control'));
    expect(control.length).toBeGreaterThan(0);
    for (const operation of control) {
      const statuses = ['400', '401'].filter((s) => operation.responses[s]?.schema !== undefined);
      expect(statuses, `${operation.operationId} documents 400 or 401`).not.toEqual([]);
      const withErrorBody = statuses.filter((s) => {
        const response = operation.responses[s];
        if (response.contentType !== 'application/json') return false;
        const schema = response.schema as { oneOf?: unknown[] };
        // claimDevice's 400 is either a bare JSON string ("FAILURE"/"CLAIMED") or the error body.
        return schema === errorSchema || JSON.stringify(schema) === JSON.stringify(errorSchema) ||
          (schema.oneOf ?? []).some((s) => JSON.stringify(s) === JSON.stringify(errorSchema));
      });
      expect(withErrorBody, `${operation.operationId} 400/401 carries the Error schema`).not.toEqual([]);
    }
  });

  it('documents 503 with the error body and Retry-After on every operation that writes', () => {
    // Writing methods that store nothing: tokens are signed, a client RPC asks the rule engine.
    const storesNothing = ['login', 'refreshToken', 'postClientRpc'];
    const writes = contract.operations.filter((o) => ['post', 'put', 'delete'].includes(o.method) && o.responses['200'] && !storesNothing.includes(o.operationId));
    expect(writes.length).toBeGreaterThan(30);
    for (const operation of writes) {
      expectErrorBody(operation, '503');
      expect(operation.responses['503'].headers, `${operation.operationId} 503 headers`).toEqual(['Retry-After']);
    }
  });

  it('answers the long polls with 408 and an empty body', () => {
    for (const op of [4, 5]) {
      const operation = deviceOperations(contract).find((o) => o.op === op)!;
      expect(operation.responses['408'], operation.operationId).toBeDefined();
      expect(operation.responses['408'].contentType).toBeUndefined();
    }
  });

  it('sends firmware and software as bytes with Content-Disposition and x-filename', () => {
    for (const operation of deviceOperations(contract).filter((o) => o.op === 10)) {
      const ok = operation.responses['200'];
      expect(ok.contentType).toBe('application/octet-stream');
      expect(ok.headers).toEqual(expect.arrayContaining(['Content-Disposition', 'x-filename']));
      expect(operation.queryParams.map((p) => p.name)).toEqual(['title', 'version', 'size', 'chunk']);
    }
  });
});
