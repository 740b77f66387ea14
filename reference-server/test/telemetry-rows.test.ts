// The rows of a batch cross to the telemetry worker packed (store/telemetry-rows.ts PackedRows:
// numbers in a Float64Array, the batch's keys once each, text cells in one string, any other cell as
// itself), and the worker's connection appends them to the log: what lands there is what was
// gathered, value for value.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../store/sqlite-schema.js';
import { createRowWriter } from '../store/sqlite-telemetry-log.js';
import { createRowBuffer, type PackedRows } from '../store/telemetry-rows.js';
import type { ValueType } from '../store/types.js';

type Row = [device: number, key: string, ts: number, type: ValueType, cell: unknown];
/** The log's type codes, as a schema migration wrote them for the rows waiting then (sqlite-schema.ts). */
const TYPE_CODES: ValueType[] = ['BOOLEAN', 'LONG', 'DOUBLE', 'STRING', 'JSON'];

function logged(rows: Row[]): unknown[][] {
  const db = new Database(':memory:');
  migrate(db, 'profile-1', 0);
  const buffer = createRowBuffer();
  for (const row of rows) buffer.push(...row);
  expect(buffer.length).toBe(rows.length);
  // As the worker gets it: a structured clone of the packed rows.
  const packed = structuredClone(buffer.take());
  expect(buffer.length).toBe(0);
  createRowWriter(db).write(packed);
  const appended = db
    .prepare(`SELECT l.device, k.key, l.ts, l.type, l.value FROM telemetry_log l JOIN telemetry_keys k ON k.id = l.key ORDER BY l.rowid`)
    .raw()
    .all() as [number, string, number, number, unknown][];
  return appended.map(([device, key, ts, code, value]) => [device, key, ts, TYPE_CODES[code], value]);
}

describe('packed telemetry rows', () => {
  it('append every number, key and text to the log as they were gathered', () => {
    const rows: Row[] = [
      [1, 'temperature', 1_700_000_000_123, 'DOUBLE', 21.5],
      [1, 'count', 1_700_000_000_123, 'LONG', 2 ** 53 - 1],
      [2, 'big', 5, 'LONG', '9223372036854775807'],
      [2, 'on', 5, 'BOOLEAN', 1],
      [3, 'ключ 🔑', 6, 'STRING', 'значение \u0000 with a NUL and 🙂'],
      [3, '', 6, 'STRING', ''],
      [3, 'json', 6, 'JSON', '{"a":[1,2]}'],
      [4, 'a-key-longer-than-thirteen-characters', -1, 'DOUBLE', -0.000001],
    ];
    expect(logged(rows)).toEqual(rows);
  });

  it('take more rows than one statement and one starting buffer hold', () => {
    const rows: Row[] = Array.from({ length: 1_000 }, (_, i) => [i + 1, `k${i % 7}`, i, i % 2 ? 'STRING' : 'DOUBLE', i % 2 ? `v${i}` : i / 3]);
    expect(logged(rows)).toEqual(rows);
  });

  it('give a cell that is neither a number nor a text to SQLite as itself, which refuses it', () => {
    expect(() => logged([[1, 'other', 1, 'STRING', {}]])).toThrow(/parameter values/);
  });

  it('start afresh after clear()', () => {
    const buffer = createRowBuffer();
    buffer.push(1, 'gone', 1, 'LONG', 1);
    buffer.clear();
    buffer.push(2, 'kept', 2, 'STRING', 'x');
    const packed: PackedRows = buffer.take();
    expect(packed.nums.length / 5).toBe(1);
    expect(packed.keys).toEqual(['kept']);
    expect(packed.text).toBe('x');
    expect(packed.others).toEqual([]);
  });

  it('carry each key of a batch once, and start the keys afresh with the next batch', () => {
    const buffer = createRowBuffer();
    for (const key of ['a', 'b', 'a', 'c', 'b']) buffer.push(1, key, 1, 'LONG', 1);
    const first = buffer.take();
    expect(first.keys).toEqual(['a', 'b', 'c']);
    expect(Array.from({ length: 5 }, (_, i) => first.nums[i * 5 + 4])).toEqual([0, 1, 0, 2, 1]);
    buffer.push(1, 'c', 1, 'LONG', 1);
    expect(buffer.take().keys).toEqual(['c']);
  });
});
