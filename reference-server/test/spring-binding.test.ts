import { describe, expect, it } from 'vitest';
import { springInteger } from '../spring-binding.js';

describe('springInteger (NumberUtils.parseNumber for int and long)', () => {
  it.each([
    ['500', 500], ['+500', 500], ['-500', -500], [' 5 0 0\t', 500], ['007', 7],
    ['0x1F4', 500], ['0X1f4', 500], ['#1F4', 500], ['-0x1F4', -500], ['-#1F4', -500],
    ['9007199254740991', 9007199254740991], ['9223372036854775807', 2 ** 63], ['-9223372036854775808', -(2 ** 63)],
  ])('binds %j as a long: %d', (text, expected) => {
    expect(springInteger(text, 'int64')).toBe(expected);
  });

  it.each(['', '1e3', '1.0', '1.5', 'abc', '0x', '#', '+0x10', '0x-10', '+-1', '--1', '9223372036854775808', '-9223372036854775809', '0x8000000000000000', 'Infinity', 'NaN'])(
    'refuses %j as a long', (text) => {
      expect(springInteger(text, 'int64')).toBeUndefined();
    });

  it('bounds an int at 32 bits', () => {
    expect(springInteger('2147483647', 'int32')).toBe(2147483647);
    expect(springInteger('-2147483648', 'int32')).toBe(-2147483648);
    expect(springInteger('2147483648', 'int32')).toBeUndefined();
    expect(springInteger('0x80000000', 'int32')).toBeUndefined();
  });
});
