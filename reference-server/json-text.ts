// Compact JSON text of a parsed value, with each number as it was sent (the literals kept by the
// lossless parser), as ThingsBoard keeps a JSON value: Gson prints the number text it read.
// Recursive, but parsed bodies are at most MAX_JSON_DEPTH deep, so the stack stays small.
import { literalsOf } from './json-lossless.js';

export function jsonText(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const literals = literalsOf(value);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += literals?.get(i) ?? jsonText(value[i]);
    }
    return `${out}]`;
  }
  out = '{';
  let first = true;
  for (const key in value) {
    if (!first) out += ',';
    first = false;
    out += `${JSON.stringify(key)}:${literals?.get(key) ?? jsonText((value as Record<string, unknown>)[key])}`;
  }
  return `${out}}`;
}
