// Telemetry rows as the event loop gathers them for the telemetry log (sqlite-telemetry.ts), packed
// as they come: the form in which a batch crosses to the telemetry worker (telemetry-worker.ts), whose
// connection appends them (sqlite-telemetry-log.ts RowWriter).
import type { ValueType } from './types.js';

/**
 * A packed row's numbers (PackedRows.nums): the device's number, ts, the type's code (its index in
 * TYPES, plus TEXT_CELL or OTHER_CELL), the cell (a number; for a text cell the length of its text;
 * for another cell its index in PackedRows.others) and the key's index in PackedRows.keys.
 */
export const NUMS = 5;
/** A type's code is its index here (the telemetry log keeps the code: sqlite-telemetry-log.ts). */
export const TYPES: readonly ValueType[] = ['BOOLEAN', 'LONG', 'DOUBLE', 'STRING', 'JSON'];
/** The type's index in TYPES (a switch on the names: a lookup by five names is a megamorphic load). */
function typeCode(type: ValueType): number {
  switch (type) {
    case 'BOOLEAN':
      return 0;
    case 'LONG':
      return 1;
    case 'DOUBLE':
      return 2;
    case 'STRING':
      return 3;
    default:
      return 4;
  }
}
export const TEXT_CELL = 8;
/** A cell that is neither a number nor a text goes as itself: SQLite binds or refuses it as it would have. */
const OTHER_CELL = 16;
export const CELL_KIND = TEXT_CELL | OTHER_CELL;

/**
 * Rows gathered for the log, packed for the hand-over to the telemetry worker: a structured clone of
 * one typed array and one string costs a copy of each, where a mixed array of five values a row is
 * serialised and rebuilt value by value (~0.7 µs a three-key message each way, V8's ValueSerializer).
 * `keys` holds the batch's keys once each (the worker looks each up once a batch, not once a row);
 * `text` holds the cells that are text, one after the other.
 */
export interface PackedRows {
  nums: Float64Array;
  keys: string[];
  text: string;
  others: unknown[];
}

/** The rows gathered on the event loop (sqlite-telemetry.ts), packed as they come. */
export interface RowBuffer {
  /** Rows gathered since the last take() or clear(). */
  readonly length: number;
  /** A cell is a number or a text (sqlite-values.ts toCell). */
  push(device: number, key: string, ts: number, type: ValueType, cell: unknown): void;
  /** The rows gathered, packed; the buffer starts afresh. */
  take(): PackedRows;
  clear(): void;
}

export function createRowBuffer(): RowBuffer {
  let nums = new Float64Array(256 * NUMS);
  let used = 0;
  let keys: string[] = [];
  /** Each key's index in `keys`. */
  const keyIndex = new Map<string, number>();
  let text = '';
  let others: unknown[] = [];
  function clear(): void {
    used = 0;
    if (keys.length > 0) {
      keys = [];
      keyIndex.clear();
    }
    text = '';
    if (others.length > 0) others = [];
  }
  return {
    get length() {
      return used / NUMS;
    },
    push(device, key, ts, type, cell) {
      if (used === nums.length) {
        const grown = new Float64Array(nums.length * 2);
        grown.set(nums);
        nums = grown;
      }
      let k = keyIndex.get(key);
      if (k === undefined) keyIndex.set(key, (k = keys.push(key) - 1));
      nums[used] = device;
      nums[used + 1] = ts;
      nums[used + 4] = k;
      if (typeof cell === 'number') {
        nums[used + 2] = typeCode(type);
        nums[used + 3] = cell;
      } else if (typeof cell === 'string') {
        nums[used + 2] = typeCode(type) + TEXT_CELL;
        nums[used + 3] = cell.length;
        text += cell;
      } else {
        nums[used + 2] = typeCode(type) + OTHER_CELL;
        nums[used + 3] = others.push(cell) - 1;
      }
      used += NUMS;
    },
    take() {
      const packed = { nums: nums.slice(0, used), keys, text, others };
      clear();
      return packed;
    },
    clear,
  };
}
