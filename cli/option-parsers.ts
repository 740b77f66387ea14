// Option value parsers for commander: each rejects a bad value with a message that names it,
// which commander prefixes with the option (`error: option '--port <n>' argument 'x' is invalid.`).
import { InvalidArgumentError } from 'commander';

export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`expected an integer, got "${value}".`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`expected ${min}..${max}, got ${n}.`);
    return n;
  };
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `60s`, `2m`, `500ms`, `1h`, or a bare number of seconds; returns milliseconds. */
export function durationMs(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError(`expected a duration like 60s, 2m or 500ms, got "${value}".`);
  const ms = Number(match[1]) * UNITS[match[2] ?? 's'];
  if (ms <= 0) throw new InvalidArgumentError(`expected a positive duration, got "${value}".`);
  return Math.round(ms);
}

export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`expected an http(s) URL, got "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError(`expected an http(s) URL, got "${value}".`);
  }
  return value.replace(/\/+$/, '');
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** A number (integer or decimal) of at least `min` (exclusive when `exclusive`), e.g. a rate per second. */
export function decimal(min: number, exclusive = false) {
  return (value: string): number => {
    if (!/^\d+(?:\.\d+)?$/.test(value)) throw new InvalidArgumentError(`expected a number, got "${value}".`);
    const n = Number(value);
    if (exclusive ? n <= min : n < min) throw new InvalidArgumentError(`expected a number ${exclusive ? 'above' : 'of at least'} ${min}, got ${n}.`);
    return n;
  };
}

/** A comma-separated list of integers in min..max (`1,100,1000`), in the order given, each once. */
export function integerList(min: number, max = Number.MAX_SAFE_INTEGER) {
  const one = integer(min, max);
  return (value: string): number[] => {
    const items = value.split(',').map((s) => s.trim());
    if (items.some((s) => s === '')) throw new InvalidArgumentError(`expected integers separated by commas, got "${value}".`);
    return [...new Set(items.map(one))];
  };
}
