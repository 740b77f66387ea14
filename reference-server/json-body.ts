// JSON request bodies. JSON.parse loses the difference between 42 and 42.0, which ThingsBoard keeps
// (LONG vs DOUBLE). Bodies without such a literal take the native fast path; the others go through a
// small strict parser that records, per object, the keys whose number literal was a "simple double".
import { badRequest } from './errors.js';

const doubleKeys = new WeakMap<object, Set<string>>();

/** True when obj[key] was written as an integral number with a fraction, e.g. 42.0 (ThingsBoard DOUBLE). */
export function isDoubleLiteral(obj: object, key: string): boolean {
  return doubleKeys.get(obj)?.has(key) ?? false;
}

// A digit, a point and only zeros after it: the one case JSON.parse cannot tell apart.
const INTEGRAL_FRACTION = /\d\.0+(?![0-9])/;

export function parseJsonBody(text: string): unknown {
  if (!INTEGRAL_FRACTION.test(text)) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw badRequest(`Invalid JSON body: ${(error as Error).message}`);
    }
  }
  return parseStrict(text);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WS = /[ \t\n\r]*/y;

function parseStrict(text: string): unknown {
  let pos = 0;
  const fail = (what: string): never => {
    throw badRequest(`Invalid JSON body: ${what} at position ${pos}`);
  };
  const skip = () => {
    WS.lastIndex = pos;
    WS.exec(text);
    pos = WS.lastIndex;
  };
  const value = (owner?: object, key?: string): unknown => {
    skip();
    const c = text[pos];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (text.startsWith('true', pos)) return (pos += 4), true;
    if (text.startsWith('false', pos)) return (pos += 5), false;
    if (text.startsWith('null', pos)) return (pos += 4), null;
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (!m) return fail(c === undefined ? 'unexpected end' : `unexpected character ${JSON.stringify(c)}`);
    pos += m[0].length;
    const n = Number(m[0]);
    if (owner && key !== undefined && Number.isInteger(n) && m[0].includes('.') && !/[eE]/.test(m[0])) {
      let keys = doubleKeys.get(owner);
      if (!keys) doubleKeys.set(owner, (keys = new Set()));
      keys.add(key);
    }
    return n;
  };
  const string = (): string => {
    const start = pos;
    pos++;
    while (pos < text.length && text[pos] !== '"') {
      if (text[pos] === '\\') pos++;
      else if (text.charCodeAt(pos) < 0x20) fail('control character in string');
      pos++;
    }
    if (pos >= text.length) fail('unterminated string');
    pos++;
    return JSON.parse(text.slice(start, pos)) as string;
  };
  const object = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    pos++;
    skip();
    if (text[pos] === '}') return pos++, out;
    for (;;) {
      skip();
      if (text[pos] !== '"') fail('expected a string key');
      const key = string();
      skip();
      if (text[pos] !== ':') fail('expected ":"');
      pos++;
      out[key] = value(out, key);
      skip();
      if (text[pos] === ',') { pos++; continue; }
      if (text[pos] === '}') return pos++, out;
      fail('expected "," or "}"');
    }
  };
  const array = (): unknown[] => {
    const out: unknown[] = [];
    pos++;
    skip();
    if (text[pos] === ']') return pos++, out;
    for (;;) {
      out.push(value());
      skip();
      if (text[pos] === ',') { pos++; continue; }
      if (text[pos] === ']') return pos++, out;
      fail('expected "," or "]"');
    }
  };
  const result = value();
  skip();
  if (pos !== text.length) fail('unexpected trailing content');
  return result;
}
