import { describe, expect, it } from 'vitest';
import { checkAgainstContract, type Response } from './contract-responses.js';

const TELEMETRY = '/api/v1/A1_TEST_TOKEN/telemetry';
const DEVICE = '/api/device/6a1bd9b0-0000-4000-8000-000000000000';

function response(status: number, body = '', contentType?: string): Response {
  const bytes = Buffer.from(body);
  return { status, headers: contentType ? { 'content-type': contentType } : {}, bytes, text: body, json: () => JSON.parse(body) };
}

const error = (status: number) => JSON.stringify({ status, message: 'm', errorCode: 31, timestamp: 1 });

describe('the contract check of the server tests', () => {
  it('passes responses the document describes', () => {
    checkAgainstContract('POST', TELEMETRY, response(200));
    checkAgainstContract('POST', TELEMETRY, response(400, error(400), 'application/json; charset=utf-8'));
    checkAgainstContract('GET', `${DEVICE}?x=1`, response(404, error(404), 'application/json'));
  });

  it('fails an undocumented status, a body where none is declared, another content type, or a body off its schema', () => {
    expect(() => checkAgainstContract('POST', TELEMETRY, response(201))).toThrow(/201 is not documented/);
    expect(() => checkAgainstContract('POST', TELEMETRY, response(200, '{}', 'application/json'))).toThrow(/a body \(\{\}\) where the document declares none/);
    expect(() => checkAgainstContract('POST', TELEMETRY, response(400, error(400), 'text/plain'))).toThrow(/content type text\/plain/);
    expect(() => checkAgainstContract('GET', DEVICE, response(200, '{"name":"x"}', 'application/json'))).toThrow(/must have required property/);
    expect(() => checkAgainstContract('GET', DEVICE, response(404))).toThrow(/empty body where the document declares application\/json/);
  });

  it('leaves requests the document does not have (unknown path, other method) to the test', () => {
    checkAgainstContract('GET', '/api/v1/nothing/here/at/all', response(404));
    checkAgainstContract('PUT', TELEMETRY, response(405, error(405), 'application/json'));
  });
});
