// Typed values <-> SQLite cells. The type tag says how to read the untyped value column back.
import type { JsonValue, KvEntry, ValueType } from './types.js';

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
    case 'JSON':
      return JSON.stringify(entry.value);
    default:
      return entry.value;
  }
}

export function fromRow(row: KvRow): KvEntry {
  let value: JsonValue;
  switch (row.type) {
    case 'BOOLEAN':
      value = row.value === 1;
      break;
    case 'JSON':
      value = JSON.parse(row.value as string) as JsonValue;
      break;
    default:
      value = row.value as JsonValue;
  }
  return { key: row.key, ts: row.ts, type: row.type, value };
}
