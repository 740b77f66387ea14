// Case shapes that repeat across operations: a bad token, an invalid input, a wrong method.
import type { Case, DeviceRequest } from '../case.js';
import type { Severity } from '../verdict.js';
import { bodyTextIs, checkAll, isErrorBody, noting, should, statusIs, type Check } from '../checks.js';
import { randomToken } from '../control/index.js';
import { changeDuringPoll, notBeforeChange, startPoll, unanswered } from './kit.js';

export const TB_500 = 'ThingsBoard answers 500 here (known difference from the specification)';

/** A token no server knows; the prefix lets the suite's own fault proxy recognise it. */
export const unknownToken = () => `unknown${randomToken(12)}`;

/** An unknown token is 401 (specification, Authentication 4). */
export function badToken(id: string, operation: string, request: (token: string) => DeviceRequest): Case {
  return {
    id,
    title: `${operation} with an unknown token is 401`,
    requirement: 'When the token is invalid, the service answers 401 Unauthorized (specification, Authentication 4).',
    severity: 'MUST',
    async run(t) {
      const reply = await t.device(request(unknownToken()));
      t.expect(statusIs(401)(reply));
    },
  };
}

/**
 * ThingsBoard binds a request before it checks the token (Spring resolves the controller's
 * arguments first): a value that does not bind, or a missing required body, is 400 with an
 * unknown token too; what binds (any body text) gets the 401.
 */
export function bindsBeforeToken(id: string, what: string, unbound: (token: string) => DeviceRequest, bound: (token: string) => DeviceRequest): Case {
  return {
    id,
    title: `${what} with an unknown token is 400 (bound before the token is checked)`,
    requirement: 'ThingsBoard binds path, query and body before DeviceApiController checks the token, so a binding error is 400 even with an unknown token; a request that binds gets 401.',
    severity: 'SHOULD',
    async run(t) {
      t.expect(...checkAll(await t.device(unbound(unknownToken())), statusIs(400), should(isErrorBody(400))));
      t.expect(statusIs(401)(await t.device(bound(unknownToken()))));
    },
  };
}

/** ThingsBoard's text for a poll whose device was deleted (DeviceApiController, HttpSessionListener). */
export const DEVICE_DELETED = 'Device was deleted!';

/** A poll open while its device is deleted ends 403 with ThingsBoard's bare text. */
export function deletedDuringPoll(id: string, what: string, request: (token: string) => DeviceRequest): Case {
  return {
    id,
    title: `the ${what} of a device deleted meanwhile ends 403 "${DEVICE_DELETED}"`,
    requirement: `ThingsBoard answers the open poll of a deleted device 403 with the text "${DEVICE_DELETED}" (DeviceApiController.HttpSessionListener.onDeviceDeleted).`,
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const result = await changeDuringPoll(t, request(d.token), () => t.control.deleteDevice(d.id), 1);
      if (!result.reply) return t.expect(unanswered(result, 'a poll during the deletion'));
      t.expect(notBeforeChange(result), ...checkAll(result.reply, statusIs(403), bodyTextIs(DEVICE_DELETED)));
    },
  };
}

/** Timeouts that do not bind to a Java long, and how long the suite waits for the 400. */
const UNBOUND_TIMEOUTS = ['1e308', '1e3', '9223372036854775808'];
const UNBOUND_WAIT_MS = 3000;

/** A poll timeout that is not a Java long is 400, not clamped or taken as a number. */
export function unboundTimeout(id: string, request: (token: string, timeout: string) => DeviceRequest): Case {
  return {
    id,
    title: `a timeout that is not a Java long (${UNBOUND_TIMEOUTS.join(', ')}) is 400, not clamped`,
    requirement: 'ThingsBoard binds timeout to a long (Spring, NumberUtils.parseNumber): an exponent, a fraction or a value beyond the 64-bit range does not bind and is 400.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      for (const timeout of UNBOUND_TIMEOUTS) {
        const result = await startPoll(t, { ...request(t.devices[0].token, timeout), deadlineMs: UNBOUND_WAIT_MS }).result;
        if (!result.reply) t.expect({ check: 'answeredAt400', expected: `timeout=${timeout} answered 400 at once`, actual: result.failed?.message });
        else t.expect(...checkAll(result.reply, noting(`timeout=${timeout}`, statusIs(400))));
      }
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

/**
 * ThingsBoard answers a known path with the wrong method 405 (errorCode 31), with the Allow header
 * that RFC 9110 (15.5.6) requires: Spring lists the methods the path is mapped to.
 */
export function wrongMethod(id: string, allowed: string[], request: (token: string) => DeviceRequest): Case {
  const sample = request('TOKEN');
  return {
    id,
    title: `${sample.method} on ${sample.path.replace('/TOKEN/', '/{token}/')} is 405 with Allow: ${allowed.join(', ')}`,
    requirement: 'A path that exists but not with this method is answered 405 Method Not Allowed (ThingsBoard; the specification is silent), with an Allow header that lists the methods the path has (RFC 9110, 15.5.6).',
    severity: 'SHOULD',
    async run(t) {
      const reply = await t.device(request(randomToken()));
      t.expect(...checkAll(reply, statusIs(405), isErrorBody(405), allowHeaderLists(allowed, sample.method)));
    },
  };
}

/** HEAD and OPTIONS come with GET or with the framework; an Allow header may list them or not. */
const IMPLIED_METHODS = new Set(['HEAD', 'OPTIONS']);

/**
 * The Allow header names exactly the path's methods (HEAD and OPTIONS aside), and not the refused
 * one. Methods are case-sensitive tokens (RFC 9110, 9.1): "get" is not GET.
 */
function allowHeaderLists(allowed: string[], refused: string): Check {
  return (r) => {
    const listed = (r.headers.allow ?? '').split(',').map((m) => m.trim()).filter((m) => m !== '' && !IMPLIED_METHODS.has(m));
    const ok = listed.length === allowed.length && allowed.every((m) => listed.includes(m));
    return ok ? undefined : { check: 'allowHeaderLists', expected: `Allow: ${allowed.join(', ')} (not ${refused})`, actual: r.headers.allow ?? '(absent)' };
  };
}
