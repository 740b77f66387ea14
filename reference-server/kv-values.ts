// Key-value objects from device bodies -> typed entries, as ThingsBoard's JsonConverter types them:
// null skipped; booleans; integral numbers LONG unless written as a simple double (42.0); other
// numbers DOUBLE; integers outside the long range STRING; objects/arrays JSON; with type casting,
// numeric strings ("42", "007", "1.5") become numbers.
import { isDoubleLiteral } from './json-body.js';
import type { JsonValue, KvEntry } from './store/types.js';

const LONG_LIMIT = 2 ** 63;
const NUMERIC_STRING = /^-?\d+(?:\.\d+)?$/;

export function appendEntries(obj: Record<string, unknown>, ts: number, typeCast: boolean, out: KvEntry[]): void {
  for (const key in obj) {
    const value = obj[key];
    if (value === null || value === undefined) continue;
    switch (typeof value) {
      case 'boolean':
        out.push({ key, ts, type: 'BOOLEAN', value });
        break;
      case 'number':
        out.push(numberEntry(key, ts, value, isDoubleLiteral(obj, key)));
        break;
      case 'string':
        out.push(typeCast && NUMERIC_STRING.test(value)
          ? numberEntry(key, ts, Number(value), value.includes('.'))
          : { key, ts, type: 'STRING', value });
        break;
      default:
        out.push({ key, ts, type: 'JSON', value: value as JsonValue });
    }
  }
}

function numberEntry(key: string, ts: number, value: number, writtenAsDouble: boolean): KvEntry {
  if (!Number.isInteger(value) || writtenAsDouble) return { key, ts, type: 'DOUBLE', value };
  if (Math.abs(value) >= LONG_LIMIT) return { key, ts, type: 'STRING', value: BigInt(value).toString() };
  return { key, ts, type: 'LONG', value };
}

/** Entries back to the flat JSON object devices see. */
export function toObject(entries: KvEntry[]): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const e of entries) out[e.key] = e.value;
  return out;
}
