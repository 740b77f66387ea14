// Numbers typed as ThingsBoard's JsonConverter types them (BigDecimal of the text as sent):
// - integral, and not a "simple double" (a point and no exponent): LONG if it fits the signed
//   64-bit range (1e2 -> 100, 1.5e1 -> 15), else STRING with BigDecimal's plain digits;
// - otherwise DOUBLE when the scale is at most 16 (42.0, 1.5, 1e-5), else STRING (plain digits).
// Applies to number literals and, with type casting, to numeric strings ("1.0", "007").
import { badRequest } from './errors.js';

export type TypedNumber =
  | { type: 'LONG'; value: number | bigint }
  | { type: 'DOUBLE'; value: number }
  | { type: 'STRING'; value: string };

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const MAX_DOUBLE_SCALE = 16;
/** A plain form longer than this (1e99999999 would be 100 MB of zeros) is refused, not built. */
const MAX_PLAIN_EXPANSION = 10_000;

/** commons-lang NumberUtils.isParsable: digits with at most one point, not at the end; "-" allowed first. */
const PARSABLE = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;

export const isNumericString = (text: string): boolean => PARSABLE.test(text);

/** BigDecimal.toPlainString of unscaled digits (no leading zeros) and a scale. */
function plain(negative: boolean, unscaled: string, scale: number): string {
  let out: string;
  if (unscaled === '') out = scale > 0 ? `0.${'0'.repeat(scale)}` : '0';
  else if (scale <= 0) out = unscaled + '0'.repeat(-scale);
  else if (unscaled.length > scale) out = `${unscaled.slice(0, unscaled.length - scale)}.${unscaled.slice(unscaled.length - scale)}`;
  else out = `0.${'0'.repeat(scale - unscaled.length)}${unscaled}`;
  return negative && unscaled !== '' ? `-${out}` : out;
}

/** Types a JSON number literal or a numeric string from its text. */
export function typeNumberText(text: string): TypedNumber {
  const negative = text.charCodeAt(0) === 0x2d;
  let e = text.indexOf('e');
  if (e < 0) e = text.indexOf('E');
  const mantissa = text.slice(negative ? 1 : 0, e < 0 ? text.length : e);
  const exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const fraction = dot < 0 ? '' : mantissa.slice(dot + 1);
  const all = dot < 0 ? mantissa : mantissa.slice(0, dot) + fraction;
  let lead = 0;
  while (lead < all.length && all.charCodeAt(lead) === 0x30) lead++;
  const unscaled = all.slice(lead);
  const scale = fraction.length - exponent;
  if (!(Math.abs(scale) <= MAX_PLAIN_EXPANSION)) throw badRequest(`Number ${text.slice(0, 40)} is out of the range dhi stores`);
  let zeros = 0;
  while (zeros < unscaled.length && unscaled.charCodeAt(unscaled.length - 1 - zeros) === 0x30) zeros++;
  const integral = unscaled === '' || scale - zeros <= 0;
  const simpleDouble = dot >= 0 && e < 0;

  if (integral && !simpleDouble) {
    const digits = unscaled === '' ? '0' : scale >= 0 ? unscaled.slice(0, unscaled.length - scale) : unscaled + '0'.repeat(-scale);
    if (digits.length <= 15) return { type: 'LONG', value: negative ? -Number(digits) || 0 : Number(digits) };
    if (digits.length <= 19) {
      const big = BigInt(negative ? `-${digits}` : digits);
      if (big >= LONG_MIN && big <= LONG_MAX) {
        return { type: 'LONG', value: big >= -Number.MAX_SAFE_INTEGER && big <= Number.MAX_SAFE_INTEGER ? Number(big) : big };
      }
    }
    return { type: 'STRING', value: plain(negative, unscaled, scale) };
  }
  if (scale > MAX_DOUBLE_SCALE) return { type: 'STRING', value: plain(negative, unscaled, scale) };
  const value = Number(text);
  if (!Number.isFinite(value)) throw badRequest(`Number ${text.slice(0, 40)} is out of the double range`);
  return { type: 'DOUBLE', value: value === 0 ? 0 : value };
}
