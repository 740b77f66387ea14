// Case shapes that repeat across operations: a bad token, an invalid input, a wrong method.
import type { Case, DeviceRequest, Severity } from '../case.js';
import { checkAll, isErrorBody, noting, should, statusIs } from '../checks.js';
import { randomToken } from '../control/index.js';

export const TB_500 = 'ThingsBoard answers 500 here (known difference from the specification)';
export const TB_EMPTY_ERROR = 'ThingsBoard sends this error with an empty body (a SHOULD-level difference)';

/** An unknown token is 401 (specification, Authentication 4). */
export function badToken(id: string, operation: string, request: (token: string) => DeviceRequest): Case {
  return {
    id,
    title: `${operation} with an unknown token is 401`,
    requirement: 'When the token is invalid, the service answers 401 Unauthorized (specification, Authentication 4).',
    severity: 'MUST',
    async run(t) {
      const reply = await t.device(request(`unknown${randomToken(12)}`));
      t.expect(statusIs(401)(reply));
    },
  };
}

/** Invalid URL, request parameters or body is 400 (specification, Errors), with the error body. */
export function invalidInput(spec: {
  id: string;
  title: string;
  requirement?: string;
  severity?: Severity;
  /** What a real ThingsBoard does instead, if it differs. */
  thingsboard?: string;
  request: (token: string) => DeviceRequest;
}): Case {
  return {
    id: spec.id,
    title: spec.title,
    requirement: spec.requirement ?? 'An invalid URL, request parameter or body is answered 400 Bad Request (specification, Errors).',
    severity: spec.severity ?? 'MUST',
    devices: 1,
    async run(t) {
      const reply = await t.device(spec.request(t.devices[0].token));
      const status = spec.thingsboard ? noting(spec.thingsboard, statusIs(400)) : statusIs(400);
      t.expect(...checkAll(reply, status, should(isErrorBody(400))));
    },
  };
}

/** ThingsBoard answers a known path with the wrong method 405 (errorCode 31). */
export function wrongMethod(id: string, request: (token: string) => DeviceRequest): Case {
  const sample = request('TOKEN');
  return {
    id,
    title: `${sample.method} on ${sample.path.replace('/TOKEN/', '/{token}/')} is 405`,
    requirement: 'A path that exists but not with this method is answered 405 Method Not Allowed (ThingsBoard; the specification is silent).',
    severity: 'SHOULD',
    async run(t) {
      const reply = await t.device(request(randomToken()));
      t.expect(...checkAll(reply, statusIs(405), isErrorBody(405)));
    },
  };
}
