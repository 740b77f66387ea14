import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../json-body.js';
import { MAX_JSON_DEPTH, numberLiteral } from '../json-lossless.js';
import { jsonText } from '../json-text.js';
import { appendEntries } from '../kv-values.js';
import { typeNumberText } from '../number-types.js';
import type { KvEntry } from '../store/types.js';

const entries = (text: string, typeCast = true) => {
  const out: KvEntry[] = [];
  appendEntries(parseJsonBody(text) as Record<string, unknown>, 1, typeCast, out);
  return Object.fromEntries(out.map((e) => [e.key, { type: e.type, value: e.value }]));
};
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('JSON bodies', () => {
  it('parses what JSON.parse parses, to the same values, on both paths', () => {
    for (const text of ['{"a":1,"b":[true,null,"x\\"y"],"c":{"d":-2.5}}', '{"a":42.0,"b":[1e2,{"c":"\\u0041"}]}', '[]', '"s"', '-0']) {
      expect(parseJsonBody(text)).toEqual(JSON.parse(text));
    }
  });

  it.each(['{"a":', '{"a":01}', '{"a":1.}', '{"a":1e}', '{"a":1.0,}', '{"a":1.0}x', '{"a":"\u0001"}', '{a:1.0}', '[1.0'])(
    'refuses %s with 400 on either path',
    (text) => {
      expect(() => parseJsonBody(text)).toThrow(expect.objectContaining({ statusCode: 400 }));
    },
  );

  it(`accepts nesting up to ${MAX_JSON_DEPTH} and refuses one more with 400 naming the limit, on both paths`, () => {
    expect(() => parseJsonBody(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parseJsonBody(`[1.0,${nested(MAX_JSON_DEPTH - 1)}]`)).not.toThrow();
    for (const text of [nested(MAX_JSON_DEPTH + 1), `[1.0,${nested(MAX_JSON_DEPTH)}]`, `{"s":"[[[",${'"a":'.repeat(0)}"x":${nested(MAX_JSON_DEPTH)}}`]) {
      expect(() => parseJsonBody(text)).toThrow(expect.objectContaining({ statusCode: 400, message: expect.stringContaining(`maximum allowed (${MAX_JSON_DEPTH})`) }));
    }
    // Brackets inside strings do not count.
    expect(() => parseJsonBody(JSON.stringify({ s: '['.repeat(5000) }))).not.toThrow();
  });

  it('keeps the literal of each number JSON.parse would change, and only those', () => {
    const body = parseJsonBody('{"a":42.0,"b":[1e2,7,9007199254740993],"c":5,"d":-0,"e":0.0000001,"f":1.50}') as Record<string, unknown>;
    expect(numberLiteral(body, 'a')).toBe('42.0');
    expect(numberLiteral(body.b as object, 0)).toBe('1e2');
    expect(numberLiteral(body.b as object, 1)).toBeUndefined();
    expect(numberLiteral(body.b as object, 2)).toBe('9007199254740993');
    expect(numberLiteral(body, 'c')).toBeUndefined();
    expect([numberLiteral(body, 'd'), numberLiteral(body, 'e'), numberLiteral(body, 'f')]).toEqual(['-0', '0.0000001', '1.50']);
    // A long fraction is plain when JavaScript prints it back the same (computed doubles).
    const long = parseJsonBody('{"a":[1.0],"computed":20.142857142857142,"rounded":0.10000000000000001,"scale17":0.12345678901234568}') as Record<string, unknown>;
    expect(numberLiteral(long, 'computed')).toBeUndefined();
    expect(numberLiteral(long, 'rounded')).toBe('0.10000000000000001');
    expect(numberLiteral(long, 'scale17')).toBe('0.12345678901234568');
  });

  it('agrees with JSON.parse on thousands of generated documents, valid and broken, and prints them back', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
    const scalars = ['0', '-0', '42', '42.0', '1e2', '1E-7', '-1.5e+3', '9007199254740993', '12345678901234567890', '0.1', '1.50',
      '0.0000001', '""', '"a"', '"\\"q\\""', '"\\\\"', '"\\u00e9"', '"[{"', '"__proto__"', 'true', 'false', 'null'];
    const keys = ['"a"', '"__proto__"', '"[{"', '"\\"k"'];
    const generate = (depth: number): string => {
      const r = random();
      if (depth > 4 || r < 0.4) return pick(scalars);
      const n = Math.floor(random() * 4);
      if (r < 0.7) return `[${Array.from({ length: n }, () => generate(depth + 1)).join(pick([',', ' , ', ',\n']))}]`;
      return `{${Array.from({ length: n }, () => `${pick(keys)}${pick([':', ' : '])}${generate(depth + 1)}`).join(',')}}`;
    };
    for (let i = 0; i < 5000; i++) {
      let text = generate(0);
      if (random() < 0.2) {
        const at = Math.floor(random() * text.length);
        text = text.slice(0, at) + pick(['', ',', '}', '0', '"', '.', 'e']) + text.slice(at + 1);
      }
      let expected: unknown;
      try {
        expected = JSON.parse(text);
      } catch {
        expect(() => parseJsonBody(text), text).toThrow(expect.objectContaining({ statusCode: 400 }));
        continue;
      }
      const parsed = parseJsonBody(text);
      expect(parsed, text).toEqual(expected);
      expect(JSON.stringify(JSON.parse(jsonText(parsed))), text).toBe(JSON.stringify(expected));
    }
  });

  it('keeps __proto__ as an own key on both paths', () => {
    for (const text of ['{"__proto__":{"x":1}}', '{"__proto__":{"x":1.0}}']) {
      const body = parseJsonBody(text) as Record<string, unknown>;
      expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
      expect(Object.keys(body)).toEqual(['__proto__']);
    }
  });

  it('prints a JSON value compactly with its numbers as sent', () => {
    const body = parseJsonBody('{ "j" : { "a" : [ 1.0 , 12345678901234567890 , 1E5 ] , "b" : "t" } }') as Record<string, unknown>;
    expect(jsonText(body.j)).toBe('{"a":[1.0,12345678901234567890,1E5],"b":"t"}');
  });
});

describe('number types (ThingsBoard JsonConverter)', () => {
  it.each([
    ['42', 'LONG', 42],
    ['42.0', 'DOUBLE', 42],
    ['1e2', 'LONG', 100],
    ['1.5e1', 'LONG', 15],
    ['1.5E-3', 'DOUBLE', 0.0015],
    ['-0', 'LONG', 0],
    ['9223372036854775807', 'LONG', 9223372036854775807n],
    ['-9223372036854775808', 'LONG', -9223372036854775808n],
    ['9007199254740993', 'LONG', 9007199254740993n],
    ['9007199254740991', 'LONG', 9007199254740991],
    ['9223372036854775808', 'STRING', '9223372036854775808'],
    ['12345678901234567890', 'STRING', '12345678901234567890'],
    ['1e30', 'STRING', '1000000000000000000000000000000'],
    ['0.1234567890123456', 'DOUBLE', 0.1234567890123456],
    ['0.12345678901234567', 'STRING', '0.12345678901234567'],
    ['1e-20', 'STRING', '0.00000000000000000001'],
    ['-1.2e-17', 'STRING', '-0.000000000000000012'],
    ['007', 'LONG', 7],
    ['1.0', 'DOUBLE', 1],
    ['.5', 'DOUBLE', 0.5],
  ])('%s is %s %s', (text, type, value) => {
    expect(typeNumberText(text)).toEqual({ type, value });
  });

  it('refuses numbers whose plain form would be huge, and doubles beyond the double range', () => {
    expect(() => typeNumberText('1e99999999')).toThrow(expect.objectContaining({ statusCode: 400 }));
    expect(() => typeNumberText(`${'9'.repeat(400)}.5`)).toThrow(expect.objectContaining({ statusCode: 400 }));
  });

  it('types body values from their text, numeric strings only with type casting', () => {
    expect(entries('{"d":42.0,"l":73,"big":9223372036854775807,"s":"1.0","z":"007","x":"1.","t":"true"}')).toEqual({
      d: { type: 'DOUBLE', value: 42 },
      l: { type: 'LONG', value: 73 },
      big: { type: 'LONG', value: 9223372036854775807n },
      s: { type: 'DOUBLE', value: 1 },
      z: { type: 'LONG', value: 7 },
      x: { type: 'STRING', value: '1.' },
      t: { type: 'STRING', value: 'true' },
    });
    expect(entries('{"s":"1.0"}', false)).toEqual({ s: { type: 'STRING', value: '1.0' } });
  });
});
