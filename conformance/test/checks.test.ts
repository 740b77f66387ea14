import { describe, expect, it } from 'vitest';
import type { Reply } from '../client.js';
import {
  at, bodyEquals, bodyHasEntries, bodyIsEmpty, bodyLacksKeys, deepEqual, isErrorBody, noting, statusIs,
  storedTsEquals, storedTsWithin, storedValueEquals,
} from '../checks.js';

function reply(status: number, body: unknown, mediaType = 'application/json'): Reply {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status, headers: { 'content-type': mediaType }, mediaType, bytes: Buffer.from(text), text, json: body };
}

describe('checks', () => {
  it('return nothing when the claim holds and {check, expected, actual} when it does not', () => {
    expect(statusIs(200)(reply(200, undefined))).toBeUndefined();
    expect(statusIs(400)(reply(500, undefined))).toEqual({ check: 'statusIs', expected: 400, actual: 500 });
  });

  it('compare bodies as JSON values, key order aside', () => {
    expect(bodyEquals({ a: 1, b: [1, { c: 2 }] })(reply(200, { b: [1, { c: 2 }], a: 1 }))).toBeUndefined();
    expect(bodyEquals({ a: 1 })(reply(200, { a: 1, extra: null }))).toMatchObject({ check: 'bodyEquals' });
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
  });

  it('find entries and absent keys inside a group', () => {
    const r = reply(200, { client: { a: 1, b: 'x' }, shared: { s: true } });
    expect(bodyHasEntries({ a: 1 }, 'client')(r)).toBeUndefined();
    expect(bodyHasEntries({ s: false }, 'shared')(r)).toEqual({ check: 'bodyHasEntries(shared)', expected: { s: false }, actual: { s: true } });
    expect(bodyLacksKeys(['a'], 'client')(r)).toEqual({ check: 'bodyLacksKeys(client)', expected: 'no a', actual: { a: 1 } });
    expect(bodyLacksKeys(['zzz'], 'client')(r)).toBeUndefined();
  });

  it('recognise ThingsBoard error bodies and empty bodies', () => {
    expect(isErrorBody(400)(reply(400, { status: 400, message: 'bad', errorCode: 31, timestamp: 1 }))).toBeUndefined();
    expect(isErrorBody(401)(reply(401, undefined))).toMatchObject({ actual: '(empty body)' });
    expect(bodyIsEmpty()(reply(200, {}))).toMatchObject({ actual: '{}' });
  });

  it('weaken and annotate failures', () => {
    expect(at('SHOULD', statusIs(1)(reply(2, undefined)))?.severity).toBe('SHOULD');
    expect(noting('ThingsBoard answers 500', statusIs(400))(reply(500, undefined))?.message).toBe('ThingsBoard answers 500');
  });

  it('read stored telemetry: value (JSON may come back as text), exact ts and ts window', () => {
    const series = { j: [{ ts: 5, value: '{"a":[1]}' }], n: [{ ts: 7, value: 42 }] };
    expect(storedValueEquals(series, 'j', { a: [1] })).toBeUndefined();
    expect(storedValueEquals(series, 'n', '42')).toMatchObject({ check: 'storedValueEquals' });
    expect(storedValueEquals(series, 'missing', 1)).toMatchObject({ actual: 'no value stored for missing' });
    expect(storedTsEquals(series, 'n', 7)).toBeUndefined();
    expect(storedTsWithin(series, 'n', 8, 9)).toMatchObject({ check: 'storedTsWithin' });
  });
});
