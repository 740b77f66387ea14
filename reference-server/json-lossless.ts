// A strict JSON parser that keeps the text of every number JSON.parse would change (42.0, 1e2,
// 9007199254740993, ...). Values are the same JavaScript values JSON.parse gives, so validation
// and handlers see no difference; the literal of each such number is kept on the side, per
// container, and read with numberLiteral(). The parser is a loop with an explicit stack: no body
// can overflow the call stack, and nesting deeper than the limit is refused.
import { badRequest } from './errors.js';
import { lexed, lexNumber } from './json-number.js';

type Container = Record<string, unknown> | unknown[];

const literals = new WeakMap<object, Map<string | number, string>>();

/** The number literal as sent, for a number JSON.parse would change; undefined otherwise. */
export function numberLiteral(container: object, key: string | number): string | undefined {
  return literals.get(container)?.get(key);
}

/** The literals of one container (undefined when none), for loops over its members. */
export function literalsOf(container: object): Map<string | number, string> | undefined {
  return literals.get(container);
}

/**
 * Jackson's default nesting limit (StreamReadConstraints, 1000), which ThingsBoard's REST side
 * applies too; far below the depth at which V8's recursive JSON.stringify overflows (about 4000).
 */
export const MAX_JSON_DEPTH = 1000;

export const depthError = (depth: number) =>
  badRequest(`Invalid JSON body: nesting depth ${depth} exceeds the maximum allowed (${MAX_JSON_DEPTH})`);

const fail = (what: string, pos: number): never => {
  throw badRequest(`Invalid JSON body: ${what} at position ${pos}`);
};

function skipWs(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return pos;
    pos++;
  }
}

/** Index just after the string that opens at `pos` (the index of its quote); -1 if unterminated. */
export function stringEnd(text: string, pos: number): number {
  for (;;) {
    const quote = text.indexOf('"', pos + 1);
    if (quote < 0) return -1;
    let b = quote - 1;
    while (text.charCodeAt(b) === 0x5c) b--;
    if ((quote - 1 - b) % 2 === 0) return quote + 1;
    pos = quote;
  }
}

function readString(text: string, pos: number): [string, number] {
  const end = stringEnd(text, pos);
  if (end < 0) fail('unterminated string', pos);
  let simple = true;
  for (let i = pos + 1; i < end - 1; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x5c) {
      simple = false;
      break;
    }
  }
  if (simple) return [text.slice(pos + 1, end - 1), end];
  try {
    // The native parser decodes escapes and refuses control characters, as for whole bodies.
    return [JSON.parse(text.slice(pos, end)) as string, end];
  } catch {
    return fail('invalid string', pos);
  }
}

/** Sets container[key] = value; `__proto__` becomes an own property, as JSON.parse makes it. */
function put(container: Container, key: string | undefined, value: unknown, literal: string | undefined): void {
  let slot: string | number;
  if (Array.isArray(container)) {
    slot = container.length;
    container.push(value);
  } else {
    slot = key!;
    if (slot === '__proto__') Object.defineProperty(container, slot, { value, writable: true, enumerable: true, configurable: true });
    else container[slot] = value;
  }
  let map = literals.get(container);
  if (literal === undefined) {
    map?.delete(slot); // a duplicate key replaces an earlier number
    return;
  }
  if (!map) literals.set(container, (map = new Map()));
  map.set(slot, literal);
}

export function parseLossless(text: string): unknown {
  const stack: Container[] = [];
  const keys: (string | undefined)[] = [];
  let pos = 0;
  let value: unknown;
  let literal: string | undefined;

  /** After `{` or `,` in an object: the key and its colon. */
  const readKey = () => {
    pos = skipWs(text, pos);
    if (text.charCodeAt(pos) !== 0x22) fail('expected a string key', pos);
    const [key, end] = readString(text, pos);
    pos = skipWs(text, end);
    if (text.charCodeAt(pos) !== 0x3a) fail('expected ":"', pos);
    pos++;
    keys[keys.length - 1] = key;
  };

  for (;;) {
    // A value starts here; containers are pushed and the loop comes back for their first member.
    pos = skipWs(text, pos);
    const c = text.charCodeAt(pos);
    literal = undefined;
    if (c === 0x7b || c === 0x5b) {
      if (stack.length >= MAX_JSON_DEPTH) throw depthError(stack.length + 1);
      const open = c === 0x7b;
      stack.push(open ? {} : []);
      keys.push(undefined);
      pos = skipWs(text, pos + 1);
      if (text.charCodeAt(pos) !== (open ? 0x7d : 0x5d)) {
        if (open) readKey();
        continue;
      }
      pos++;
      keys.pop();
      value = stack.pop();
    } else if (c === 0x22) {
      [value, pos] = readString(text, pos);
    } else if (c === 0x74 && text.startsWith('true', pos)) {
      value = true;
      pos += 4;
    } else if (c === 0x66 && text.startsWith('false', pos)) {
      value = false;
      pos += 5;
    } else if (c === 0x6e && text.startsWith('null', pos)) {
      value = null;
      pos += 4;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const end = lexNumber(text, pos);
      if (!lexed.valid) fail('invalid number', pos);
      const raw = text.slice(pos, end);
      value = Number(raw);
      if (!lexed.plain) literal = raw;
      pos = end;
    } else {
      fail(Number.isNaN(c) ? 'unexpected end' : `unexpected character ${JSON.stringify(text[pos])}`, pos);
    }

    // A value is complete: place it, then close every container that ends here.
    for (;;) {
      if (stack.length === 0) {
        if (skipWs(text, pos) !== text.length) fail('unexpected trailing content', pos);
        return value;
      }
      const top = stack[stack.length - 1];
      put(top, keys[keys.length - 1], value, literal);
      literal = undefined;
      pos = skipWs(text, pos);
      const next = text.charCodeAt(pos);
      const array = Array.isArray(top);
      if (next === 0x2c) {
        pos++;
        if (!array) readKey();
        break;
      }
      if (next !== (array ? 0x5d : 0x7d)) fail(array ? 'expected "," or "]"' : 'expected "," or "}"', pos);
      pos++;
      keys.pop();
      value = stack.pop();
    }
  }
}
