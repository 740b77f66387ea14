// The lexer of one JSON number literal, shared by the cheap scan (json-body.ts) and the lossless
// parser (json-lossless.ts). It also says whether the literal is "plain": JSON.parse keeps all of a
// plain literal, because String(Number(literal)) gives the literal back, an integer is below 2^53
// and a fraction has at most 16 digits (ThingsBoard's DOUBLE scale). Everything else (42.0, 1e2,
// -0, 9007199254740993, 0.0000001, 0.10000000000000001) needs the text.

const ZERO = 0x30;
const NINE = 0x39;
const MINUS = 0x2d;
const DOT = 0x2e;
const PLUS = 0x2b;

/** 15 significant digits always survive a double; 16 may not (9007199254740993). */
const MAX_PLAIN_DIGITS = 15;
/** ThingsBoard's largest DOUBLE scale; a longer fraction is a STRING. */
const MAX_DOUBLE_SCALE = 16;
/** JavaScript prints numbers below 1e-6 with an exponent (1e-7), so "0.0000001" is not plain. */
const MAX_PLAIN_LEADING_ZEROS = 5;

const isDigit = (c: number) => c >= ZERO && c <= NINE;

/** Facts about the literal that lexNumber() read last (module state: no allocation per number). */
export const lexed = { plain: true, valid: true };

/** Reads the number literal starting at `start`; returns the index just after it. */
export function lexNumber(text: string, start: number): number {
  let i = start;
  let plain = true;
  const negative = text.charCodeAt(i) === MINUS;
  if (negative) i++;
  const intStart = i;
  while (isDigit(text.charCodeAt(i))) i++;
  const intDigits = i - intStart;
  let valid = intDigits > 0 && !(intDigits > 1 && text.charCodeAt(intStart) === ZERO);
  const zeroInt = intDigits === 1 && text.charCodeAt(intStart) === ZERO;
  if (negative && zeroInt) plain = false; // -0 and -0.5: rare, let the text decide
  let fracDigits = 0;
  if (text.charCodeAt(i) === DOT) {
    i++;
    const fracStart = i;
    while (isDigit(text.charCodeAt(i))) i++;
    fracDigits = i - fracStart;
    if (fracDigits === 0) valid = false;
    else if (text.charCodeAt(i - 1) === ZERO) plain = false; // 42.0, 1.50: the zeros are type or text
    if (zeroInt) {
      let zeros = 0;
      while (zeros < fracDigits && text.charCodeAt(fracStart + zeros) === ZERO) zeros++;
      if (zeros > MAX_PLAIN_LEADING_ZEROS) plain = false;
    }
  }
  const c = text.charCodeAt(i);
  if (c === 0x65 || c === 0x45) {
    plain = false;
    i++;
    const sign = text.charCodeAt(i);
    if (sign === PLUS || sign === MINUS) i++;
    const expStart = i;
    while (isDigit(text.charCodeAt(i))) i++;
    if (i === expStart) valid = false;
  }
  if (plain && intDigits + fracDigits > MAX_PLAIN_DIGITS) {
    // Computed doubles (20.142857142857142) are common: plain when printed as JavaScript does.
    const literal = text.slice(start, i);
    plain = fracDigits > 0 && fracDigits <= MAX_DOUBLE_SCALE && String(Number(literal)) === literal;
  }
  lexed.plain = plain;
  lexed.valid = valid;
  return i;
}
