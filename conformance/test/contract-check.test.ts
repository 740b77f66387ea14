import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../spec/load.js';
import type { Reply } from '../client.js';
import { createContractChecker, type ContractChecker } from '../contract-check.js';

function reply(status: number, text: string, contentType?: string): Reply {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const mediaType = (contentType ?? '').split(';')[0];
  return { status, headers: contentType ? { 'content-type': contentType } : {}, mediaType, bytes: Buffer.from(text), text, json };
}

let checker: ContractChecker;
beforeAll(async () => {
  checker = createContractChecker(await loadContract());
});

describe('responses against the contract', () => {
  it('accept documented answers', () => {
    expect(checker.check('getAttributes', reply(200, '{"client":{"a":1}}', 'application/json'), 'MUST')).toEqual([]);
    expect(checker.check('postTelemetry', reply(200, ''), 'MUST')).toEqual([]);
    expect(checker.check('subscribeRpc', reply(408, ''), 'MUST')).toEqual([]);
  });

  it('fail a status the operation does not document', () => {
    const [f] = checker.check('postTelemetry', reply(500, ''), 'MUST');
    expect(f).toMatchObject({ check: 'statusDocumented', actual: 500, severity: 'MUST' });
  });

  it('fail JSON under another content type and bodies off the schema', () => {
    expect(checker.check('getAttributes', reply(200, '{"client":{}}', 'text/plain'), 'MUST')).toMatchObject([{ check: 'mediaTypeIs', severity: 'MUST' }]);
    expect(checker.check('subscribeAttributes', reply(200, '{}', 'application/json'), 'MUST')).toMatchObject([{ check: 'bodyMatchesSchema' }]);
    expect(checker.check('subscribeRpc', reply(200, '{"id":"x","method":"m","params":{}}', 'application/json'), 'MUST')).toMatchObject([{ check: 'bodyMatchesSchema' }]);
  });

  it('weigh an empty error body (ThingsBoard 401) as a SHOULD-level difference that says so', () => {
    const [f] = checker.check('postTelemetry', reply(401, ''), 'MUST');
    expect(f.severity).toBe('SHOULD');
    expect(f.message).toMatch(/ThingsBoard sends this error with an empty body/);
  });
});
