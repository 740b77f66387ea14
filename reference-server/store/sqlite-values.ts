// Typed values <-> SQLite cells. The type tag says how to read the untyped value column back.
// LONGs beyond 2^53 are kept as their digits (text), JSON values as their text: nothing in a
// value passes through a double that was not one.
import type { KvEntry, KvValue, ValueType } from './types.js';

export interface KvRow {
  key: string;
  ts: number;
  type: ValueType;
  value: unknown;
}

export function toCell(entry: KvEntry): unknown {
  switch (entry.type) {
    case 'BOOLEAN':
      return entry.value ? 1 : 0;
    case 'LONG':
      return typeof entry.value === 'bigint' ? entry.value.toString() : entry.value;
    default:
      return entry.value;
  }
}

export function fromRow(row: KvRow): KvEntry {
  let value = row.value as KvValue;
  if (row.type === 'BOOLEAN') value = row.value === 1;
  else if (row.type === 'LONG' && typeof value === 'string') value = BigInt(value);
  return { key: row.key, ts: row.ts, type: row.type, value };
}

/** `IN (...)` needs one placeholder per key; key lists are filtered in JS instead of building SQL per call. */
export const pick = (entries: KvEntry[], keys?: string[]): KvEntry[] =>
  keys ? entries.filter((e) => keys.includes(e.key)) : entries;
