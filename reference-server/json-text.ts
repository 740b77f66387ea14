// Compact JSON text of a parsed value, with each number as it was sent (the literals kept by the
// lossless parser), as ThingsBoard keeps a JSON value: Gson prints the number text it read.
// Recursive, but parsed bodies are at most MAX_JSON_DEPTH deep, so the stack stays small.
import { literalsOf } from './json-lossless.js';

export function jsonText(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += memberText(value, i);
    }
    return `${out}]`;
  }
  out = '{';
  let first = true;
  for (const key in value) {
    if (!first) out += ',';
    first = false;
    out += `${JSON.stringify(key)}:${memberText(value, key)}`;
  }
  return `${out}}`;
}

/**
 * The text of one member of a parsed body (`params` of an RPC body), its numbers as sent: a number
 * member's literal is kept by its container. An absent member is `null`.
 */
export function memberText(container: object, key: string | number): string {
  const value = (container as Record<string | number, unknown>)[key];
  if (value === undefined) return 'null';
  return literalsOf(container)?.get(key) ?? jsonText(value);
}
