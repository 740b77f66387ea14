// Small pure checks named as claims. Each returns a Failure {check, expected, actual} or undefined.
import type { Failure, Severity } from './verdict.js';
import type { Reply } from './client.js';

export type Check = (reply: Reply) => Failure | undefined;

/** Run response checks; the failures, in order. */
export function checkAll(reply: Reply, ...checks: Check[]): (Failure | undefined)[] {
  return checks.map((check) => check(reply));
}

/** The same claim at a weaker severity (a ThingsBoard detail inside a specification case). */
export function at(severity: Severity, failure: Failure | undefined): Failure | undefined {
  return failure && { ...failure, severity };
}

export function should(check: Check): Check {
  return (reply) => at('SHOULD', check(reply));
}

/** Adds an explanation, e.g. a known ThingsBoard difference, to a failure. */
export function noting(message: string, check: Check): Check {
  return (reply) => {
    const failure = check(reply);
    return failure && { ...failure, message: failure.message ? `${failure.message}; ${message}` : message };
  };
}

export function statusIs(expected: number): Check {
  return (r) => (r.status === expected ? undefined : { check: 'statusIs', expected, actual: r.status });
}

export function statusIsSuccess(): Check {
  return (r) => (r.status >= 200 && r.status < 300 ? undefined : { check: 'statusIsSuccess', expected: '2xx', actual: r.status });
}

export function bodyIsEmpty(): Check {
  return (r) => (r.bytes.length === 0 ? undefined : { check: 'bodyIsEmpty', expected: '', actual: r.text.slice(0, 200) });
}

export function bodyIsJson(): Check {
  return (r) => {
    if (r.json !== undefined) return undefined;
    return { check: 'bodyIsJson', expected: 'a JSON document', actual: r.bytes.length ? `${r.jsonError}: ${r.text.slice(0, 120)}` : '(empty body)' };
  };
}

export function mediaTypeIs(expected: string): Check {
  return (r) => (r.mediaType === expected ? undefined : { check: 'mediaTypeIs', expected, actual: r.headers['content-type'] ?? '(none)' });
}

/** The body is exactly this text (bytes passed on unchanged; a JSON compare cannot tell 1.0 from 1). */
export function bodyTextIs(expected: string): Check {
  return (r) => (r.text === expected ? undefined : { check: 'bodyTextIs', expected, actual: r.text.slice(0, 300) });
}

const JSON_SPACE = ' \n\r\t';

/** The number after `"key":` in the raw body text, e.g. "42.0"; undefined when there is none. */
function numberTextOf(text: string, key: string): string | undefined {
  const marker = JSON.stringify(key);
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
    let i = at + marker.length;
    while (JSON_SPACE.includes(text[i])) i++;
    if (text[i] !== ':') continue;
    i++;
    while (JSON_SPACE.includes(text[i])) i++;
    let end = i;
    while (end < text.length && '-+.0123456789eE'.includes(text[end])) end++;
    return end > i ? text.slice(i, end) : undefined;
  }
  return undefined;
}

/** The raw body gives `key` this number text: 42.0 must read back as 42.0, not 42. */
export function numberTextIs(key: string, expected: string): Check {
  return (r) => {
    const actual = numberTextOf(r.text, key);
    return actual === expected ? undefined : { check: 'numberTextIs', expected: `"${key}":${expected}`, actual: actual === undefined ? r.text.slice(0, 200) : `"${key}":${actual}` };
  };
}

export function bodyEquals(expected: unknown): Check {
  return (r) => (deepEqual(r.json, expected) ? undefined : { check: 'bodyEquals', expected, actual: r.json ?? r.text });
}

/** The body is an object holding these entries (other keys may be present). */
export function bodyHasEntries(expected: Record<string, unknown>, where?: string): Check {
  return (r) => entriesPresent(pick(r.json, where), expected, where ? `bodyHasEntries(${where})` : 'bodyHasEntries');
}

/** None of these keys appear in the object at `where` (or the body). */
export function bodyLacksKeys(keys: string[], where?: string): Check {
  return (r) => {
    const target = pick(r.json, where);
    const present = isObject(target) ? keys.filter((k) => k in target) : [];
    return present.length ? { check: where ? `bodyLacksKeys(${where})` : 'bodyLacksKeys', expected: `no ${keys.join(', ')}`, actual: pickEntries(target, present) } : undefined;
  };
}

/** ThingsBoard's error body `{status, message, errorCode, timestamp}` with this status. */
export function isErrorBody(status: number): Check {
  return (r) => {
    const body = r.json;
    if (isObject(body) && body.status === status && typeof body.errorCode === 'number' && typeof body.timestamp === 'number' && 'message' in body) return undefined;
    return { check: 'isErrorBody', expected: { status, message: '...', errorCode: '<int>', timestamp: '<ms>' }, actual: r.bytes.length ? r.json ?? r.text.slice(0, 200) : '(empty body)' };
  };
}

/** The error JSON's message is a text that says something (`what`), not empty. */
export function errorMessageSays(what: string): Check {
  return (r) => {
    const message = isObject(r.json) ? r.json.message : undefined;
    return typeof message === 'string' && message.trim() !== '' ? undefined : { check: 'errorMessageSays', expected: `a message saying ${what}`, actual: message === undefined ? '(no message)' : JSON.stringify(message) };
  };
}

export function headerMatches(name: string, pattern: RegExp): Check {
  return (r) => {
    const value = r.headers[name.toLowerCase()];
    return value !== undefined && pattern.test(value) ? undefined : { check: `headerMatches(${name})`, expected: String(pattern), actual: value ?? '(absent)' };
  };
}

// ---- values read back through the control API -------------------------------------------------

export type Series = Record<string, { ts: number; value: unknown }[]>;

/** A key asked for without a latest value reads as one point with a null value (ThingsBoard), not a stored one. */
const storedPoints = (series: Series, key: string) => (series[key] ?? []).filter((p) => p.value !== null);

/** The latest stored value of `key` equals `expected` (JSON values may come back as their text). */
export function storedValueEquals(series: Series, key: string, expected: unknown): Failure | undefined {
  const point = series[key]?.[0];
  if (!point || point.value === null) return { check: 'storedValueEquals', expected: { [key]: expected }, actual: `no value stored for ${key}` };
  return sameValue(point.value, expected) ? undefined : { check: 'storedValueEquals', expected: { [key]: expected }, actual: { [key]: point.value } };
}

export function storedTsEquals(series: Series, key: string, expected: number): Failure | undefined {
  const ts = storedPoints(series, key).map((p) => p.ts);
  return ts.includes(expected) ? undefined : { check: 'storedTsEquals', expected: { [key]: expected }, actual: { [key]: ts } };
}

/** Every stored point of `key` carries a server timestamp from inside the request's window. */
export function storedTsWithin(series: Series, key: string, from: number, to: number): Failure | undefined {
  const ts = storedPoints(series, key).map((p) => p.ts);
  const ok = ts.length > 0 && ts.every((t) => t >= from && t <= to);
  return ok ? undefined : { check: 'storedTsWithin', expected: `${key}: ts in [${from}, ${to}]`, actual: { [key]: ts } };
}

/** Nothing stored for `key`: no point, or (ThingsBoard's answer for a key asked for without a latest value) only a null one. */
export function keyNotStored(series: Series, key: string): Failure | undefined {
  return storedPoints(series, key).length > 0 ? { check: 'keyNotStored', expected: `nothing stored for ${key}`, actual: series[key] } : undefined;
}

/** Attribute entries as the control API lists them: [{key, value, lastUpdateTs}]. */
export function attributesInclude(entries: unknown, expected: Record<string, unknown>): Failure | undefined {
  const actual = Object.fromEntries((Array.isArray(entries) ? entries : []).map((e: { key: string; value: unknown }) => [e.key, e.value]));
  return entriesPresent(actual, expected, 'attributesInclude');
}

export function attributesLack(entries: unknown, keys: string[]): Failure | undefined {
  const present = (Array.isArray(entries) ? entries : []).filter((e: { key: string }) => keys.includes(e.key));
  return present.length ? { check: 'attributesLack', expected: `no ${keys.join(', ')}`, actual: present } : undefined;
}

export function valueEquals(check: string, actual: unknown, expected: unknown): Failure | undefined {
  return deepEqual(actual, expected) ? undefined : { check, expected, actual };
}

export function isTrue(check: string, condition: boolean, expected: unknown, actual: unknown): Failure | undefined {
  return condition ? undefined : { check, expected, actual };
}

// ---- helpers ----------------------------------------------------------------------------------

function entriesPresent(target: unknown, expected: Record<string, unknown>, check: string): Failure | undefined {
  if (!isObject(target)) return { check, expected, actual: target === undefined ? '(absent)' : target };
  const wrong = Object.keys(expected).filter((k) => !(k in target) || !sameValue(target[k], expected[k]));
  return wrong.length ? { check, expected: pickEntries(expected, wrong), actual: pickEntries(target, wrong) } : undefined;
}

/** Equal as JSON values; a JSON value stored as its text also counts. */
function sameValue(actual: unknown, expected: unknown): boolean {
  if (deepEqual(actual, expected)) return true;
  if (typeof actual === 'string' && typeof expected === 'object' && expected !== null) {
    try {
      return deepEqual(JSON.parse(actual), expected);
    } catch {
      return false;
    }
  }
  return false;
}

function pick(body: unknown, where: string | undefined): unknown {
  return where === undefined ? body : isObject(body) ? body[where] : undefined;
}

function pickEntries(target: unknown, keys: string[]): Record<string, unknown> {
  const source = isObject(target) ? target : {};
  return Object.fromEntries(keys.map((k) => [k, k in source ? source[k] : '(absent)']));
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}
