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
  // Each character is read once (the loops carry it on); the rare parts are functions of their
  // own, which keeps this one small enough for V8 to inline into the scan of every body.
  let i = start;
  let c = text.charCodeAt(i);
  const negative = c === MINUS;
  if (negative) c = text.charCodeAt(++i);
  const first = c;
  const intStart = i;
  while (isDigit(c)) c = text.charCodeAt(++i);
  const intDigits = i - intStart;
  let valid = intDigits > 0 && !(intDigits > 1 && first === ZERO);
  const zeroInt = intDigits === 1 && first === ZERO;
  let plain = !(negative && zeroInt); // -0 and -0.5: rare, let the text decide
  let fracDigits = 0;
  if (c === DOT) {
    const fracStart = ++i;
    let last = c;
    c = text.charCodeAt(i);
    while (isDigit(c)) {
      last = c;
      c = text.charCodeAt(++i);
    }
    fracDigits = i - fracStart;
    if (fracDigits === 0) valid = false;
    else if (last === ZERO) plain = false; // 42.0, 1.50: the zeros are type or text
    if (zeroInt && leadingZeros(text, fracStart, fracDigits) > MAX_PLAIN_LEADING_ZEROS) plain = false;
  }
  if (c === 0x65 || c === 0x45) return lexExponent(text, i, valid);
  // Computed doubles (20.142857142857142) are common: plain when printed as JavaScript does.
  if (plain && intDigits + fracDigits > MAX_PLAIN_DIGITS) plain = printsAsWritten(text, start, i, fracDigits);
  lexed.plain = plain;
  lexed.valid = valid;
  return i;
}

/** The zeros that open the fraction of `0.` (at most `fracDigits`). */
function leadingZeros(text: string, fracStart: number, fracDigits: number): number {
  let zeros = 0;
  while (zeros < fracDigits && text.charCodeAt(fracStart + zeros) === ZERO) zeros++;
  return zeros;
}

/** The exponent at `e` (index `i`) of a literal: never plain; returns the index just after it. */
function lexExponent(text: string, i: number, valid: boolean): number {
  i++;
  const sign = text.charCodeAt(i);
  if (sign === PLUS || sign === MINUS) i++;
  const expStart = i;
  while (isDigit(text.charCodeAt(i))) i++;
  lexed.plain = false;
  lexed.valid = valid && i > expStart;
  return i;
}

/** A literal of more digits than always survive a double: plain when a fraction JavaScript prints back as written. */
function printsAsWritten(text: string, start: number, end: number, fracDigits: number): boolean {
  const literal = text.slice(start, end);
  return fracDigits > 0 && fracDigits <= MAX_DOUBLE_SCALE && String(Number(literal)) === literal;
}
