// Key-value objects from parsed bodies -> typed entries, as ThingsBoard's JsonConverter types them:
// null skipped; booleans; numbers by their text as sent (number-types.ts); objects and arrays JSON,
// kept as compact text with their numbers as sent; with type casting, numeric strings ("42",
// "007", "1.0") become numbers.
import { literalsOf } from './json-lossless.js';
import { jsonText } from './json-text.js';
import { isNumericString, typeNumberText } from './number-types.js';
import type { KvEntry } from './store/types.js';

export function appendEntries(obj: Record<string, unknown>, ts: number, typeCast: boolean, out: KvEntry[]): void {
  const literals = literalsOf(obj);
  for (const key in obj) {
    const value = obj[key];
    if (value === null || value === undefined) continue;
    switch (typeof value) {
      case 'boolean':
        out.push({ key, ts, type: 'BOOLEAN', value });
        break;
      case 'number': {
        // Without a kept literal the number is plain: an integer below 2^53 or a short decimal.
        const literal = literals?.get(key);
        if (literal !== undefined) out.push({ key, ts, ...typeNumberText(literal) });
        else out.push({ key, ts, type: Number.isInteger(value) ? 'LONG' : 'DOUBLE', value });
        break;
      }
      case 'string':
        out.push(typeCast && isNumericString(value)
          ? { key, ts, ...typeNumberText(value) }
          : { key, ts, type: 'STRING', value });
        break;
      default:
        out.push({ key, ts, type: 'JSON', value: jsonText(value) });
    }
  }
}
