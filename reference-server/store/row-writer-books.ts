// One row writer's books of the telemetry log (sqlite-telemetry-log.ts says what a fold of every row
// does with them): the rows it appended since its last fold of every row, and the devices whose rows
// left the log since (a fold of one device). A fold of every row asks them for each device's rows in
// log order, and for each (device, key) the row of its greatest ts (the later on a tie).
//
// The rows are kept in log order in one array of numbers (Booked), not as books by device: booking a
// row in a Map of 10,000 devices' objects, each with a Map of its keys, missed the CPU's caches at
// every message (6.8 % of the worker's samples at 10,000 devices, ~0.8 µs a message). The fold sorts
// the rows by device once (a stable radix sort) and walks each device's rows together.
//
// Each row also names the device's row before it, so that a fold of one device (before a read of it)
// finds its rows without a pass over the log (sqlite-telemetry-log.ts).
//
// A fold of every row may go in slices (a generation, sqlite-telemetry-log.ts): the rows booked when
// it starts are sorted once and cut into slices of whole devices, in ascending device order; each
// slice is folded in a transaction of its own, and rows of the devices folded so far are `applied`
// until the last slice, when the generation's rows leave the log and the books.
import { createRunList, MAX_RUN_ROWID, RUN } from './rowid-runs.js';

const DIGIT = 0xffff;
/** Key ids up to this are booked (a fold keeps a place by key id: an array of this many at most). */
const MAX_KEY = 2 ** 20;
/** Devices numbered below this have their rows chained (an array by device number: 16 MB at most). */
const CHAINED_DEVICES = 2 ** 22;

export interface FoldRuns {
  /** Every row, by device (ascending), in log order within a device: a JSON array of runs. */
  rows: string;
  /** Each (device, key)'s row of its greatest ts, the later on a tie: a JSON array of runs of one row. */
  latest: string;
}

/** A slice's runs, and the last device of the slices folded so far (0: none yet). */
export interface SliceRuns extends FoldRuns {
  lastDevice: number;
}

export interface RowWriterBooks {
  /**
   * Books the row appended at `rowid`. False if it cannot (a device not a 32-bit integer, a key id
   * past MAX_KEY, a rowid too large for a run): the books no longer know the log.
   */
  add(device: number, key: number, ts: number, rowid: number): boolean;
  /**
   * Every row of the device leaves the log: the runs of those booked (a JSON array, ascending; a run
   * may name a row that has left since, or whose rowid a later row took), or undefined for a device
   * numbered past CHAINED_DEVICES.
   */
  take(device: number): string | undefined;
  /** The rows booked that are still in the log (applied ones of a generation included). */
  rows(): number;
  /**
   * The runs of a fold of every row not yet applied, of the devices that `existing` keeps: it is given
   * the devices with rows, ascending, and answers those that exist, ascending.
   */
  runs(existing: (devices: number[]) => number[]): FoldRuns;
  /** The slice a generation folds next (1 to its slice count), or 0 when none is under way. */
  readonly nextSlice: number;
  /** Starts a generation of the rows booked so far, in `slices` slices; returns its last row's rowid (0: none). */
  startGeneration(slices: number): number;
  /** The runs of the generation's next slice (as `runs`); its rows count as applied from now on. */
  slice(existing: (devices: number[]) => number[]): SliceRuns;
  /** The generation's rows left the log (after its last slice). */
  endGeneration(): void;
}

/**
 * The rows booked, in log order: FIELDS numbers a row (device, key, ts, rowid, and the index of the
 * device's row before it, -1 for none) in one array, so that the fold's walk in device order reads a
 * row from one place in memory, not four (with 10,000 devices it reads them out of log order, and four
 * arrays took four cache misses a row).
 */
interface Booked {
  rows: Float64Array;
  /** Rows booked. */
  length: number;
}
const FIELDS = 5;
const [DEVICE, KEY, TS, ROWID, BEFORE] = [0, 1, 2, 3, 4];

/**
 * Row indexes by device, log order kept within a device: a radix sort of 16 bits a pass, the second
 * pass only for device numbers past 16 bits, none if the rows are in order already (one device's).
 * (Top-level functions of typed arrays, as the others below: a fold calls each once, and V8 optimizes
 * their loops while they run.)
 */
function byDevice({ rows, length }: Booked, maxDevice: number): Uint32Array {
  let order = new Uint32Array(length);
  for (let i = 0; i < length; i++) order[i] = i;
  let sorted = true;
  for (let i = 1; i < length && sorted; i++) sorted = rows[(i - 1) * FIELDS + DEVICE] <= rows[i * FIELDS + DEVICE];
  if (sorted) return order;
  let spare = new Uint32Array(length);
  const starts = new Uint32Array(DIGIT + 2);
  for (let shift = 0; shift < 32 && (shift === 0 || maxDevice >>> shift > 0); shift += 16) {
    starts.fill(0);
    for (let i = 0; i < length; i++) starts[((rows[i * FIELDS + DEVICE] >>> shift) & DIGIT) + 1]++;
    for (let d = 1; d <= DIGIT + 1; d++) starts[d] += starts[d - 1];
    for (let j = 0; j < length; j++) {
      const i = order[j];
      spare[starts[(rows[i * FIELDS + DEVICE] >>> shift) & DIGIT]++] = i;
    }
    [order, spare] = [spare, order];
  }
  return order;
}

/** Whether row `i` is still in the log: a row booked before its device's take is not. */
const inLog = ({ rows }: Booked, taken: Map<number, number>, i: number) => i >= (taken.get(rows[i * FIELDS + DEVICE]) ?? 0);

/** A fold of every row in slices: the rows booked when it started, by device, cut into slices. */
interface Generation {
  /** The generation's rows are the first `end` booked. */
  end: number;
  /** Their indexes by device (byDevice). */
  order: Uint32Array;
  /** Where each slice ends in `order`: a device's rows are all in one slice. */
  cuts: number[];
  /** The slice folded next (1-based). */
  next: number;
  /** The last device of the slices folded so far (0: none; device numbers start at 1). */
  applied: number;
}

/** Where each of `slices` slices of about equal rows ends in `order`, moved on to the end of a device's rows. */
function cutsOf({ rows }: Booked, order: Uint32Array, slices: number): number[] {
  const cuts: number[] = [];
  let cut = 0;
  for (let s = 1; s <= slices; s++) {
    cut = Math.max(cut, Math.round((order.length * s) / slices));
    while (cut > 0 && cut < order.length && rows[order[cut] * FIELDS + DEVICE] === rows[order[cut - 1] * FIELDS + DEVICE]) cut++;
    cuts.push(cut);
  }
  return cuts;
}

/** Each device with rows in `order`, ascending. */
function devicesOf({ rows }: Booked, order: Uint32Array): number[] {
  const numbers: number[] = [];
  for (let j = 0; j < order.length; j++) {
    const device = rows[order[j] * FIELDS + DEVICE];
    if (device !== numbers[numbers.length - 1]) numbers.push(device);
  }
  return numbers;
}

/** The runs of the rows in `order` of the devices `kept` (ascending), and of each (device, key)'s latest row. */
function runsOf({ rows }: Booked, order: Uint32Array, kept: number[], maxKey: number): FoldRuns {
  // A run may go on into the next device's rows when their rowids follow on: the runs only give the rows' order.
  const runs = createRunList();
  const latest: number[] = [];
  const latestTs: number[] = [];
  /** By key id, the place in `latest` of the device's row of that key; -1 for none. */
  const placeOf = new Int32Array(maxKey + 1).fill(-1);
  /** The keys of the device's rows, to clear their places after it. */
  const deviceKeys: number[] = [];
  let k = 0;
  for (let j = 0; j < order.length; ) {
    const device = rows[order[j] * FIELDS + DEVICE];
    while (k < kept.length && kept[k] < device) k++;
    const keep = kept[k] === device;
    for (; j < order.length; j++) {
      const at = order[j] * FIELDS;
      if (rows[at + DEVICE] !== device) break;
      if (!keep) continue;
      const rowid = rows[at + ROWID];
      runs.add(rowid);
      const key = rows[at + KEY];
      const ts = rows[at + TS];
      const place = placeOf[key];
      if (place < 0) {
        placeOf[key] = latest.length;
        deviceKeys.push(key);
        latest.push(rowid * RUN + 1);
        latestTs.push(ts);
      } else if (ts >= latestTs[place]) {
        latest[place] = rowid * RUN + 1;
        latestTs[place] = ts;
      }
    }
    for (const key of deviceKeys) placeOf[key] = -1;
    deviceKeys.length = 0;
  }
  return { rows: runs.json(), latest: JSON.stringify(latest) };
}

/** `capacity`: rows before the array first grows (the last fold's rows spare its growing). */
export function createRowWriterBooks(capacity: number): RowWriterBooks {
  const booked: Booked = { rows: new Float64Array(capacity * FIELDS), length: 0 };
  let maxDevice = 0;
  let maxKey = 0;
  /** For each device taken, the rows booked then: its rows before that left the log. */
  const taken = new Map<number, number>();
  /** By device number (below CHAINED_DEVICES), the index of its last row booked, plus one (0: none since its take). */
  let lastOf = new Int32Array(0);
  let generation: Generation | undefined;
  /** Whether row `i` waits to be folded: in the log, and not a row a generation's slices applied. */
  const waits = (i: number) =>
    inLog(booked, taken, i) && !(generation && i < generation.end && booked.rows[i * FIELDS + DEVICE] <= generation.applied);
  const runsOfOrder = (order: Uint32Array, existing: (devices: number[]) => number[]) =>
    runsOf(booked, order, existing(devicesOf(booked, order)), maxKey);

  return {
    add(device, key, ts, rowid) {
      if ((device | 0) !== device || device < 0 || (key | 0) !== key || key < 0 || key > MAX_KEY || rowid > MAX_RUN_ROWID) return false;
      let at = booked.length * FIELDS;
      if (at === booked.rows.length) {
        const wider = new Float64Array(booked.rows.length * 2);
        wider.set(booked.rows);
        booked.rows = wider;
      }
      if (device < CHAINED_DEVICES && device >= lastOf.length) {
        const wider = new Int32Array(Math.min(CHAINED_DEVICES, Math.max(device + 1, lastOf.length * 2)));
        wider.set(lastOf);
        lastOf = wider;
      }
      const { rows } = booked;
      rows[at++] = device;
      rows[at++] = key;
      rows[at++] = ts;
      rows[at++] = rowid;
      rows[at] = device < CHAINED_DEVICES ? lastOf[device] - 1 : -1;
      if (device < CHAINED_DEVICES) lastOf[device] = booked.length + 1;
      booked.length++;
      if (device > maxDevice) maxDevice = device;
      if (key > maxKey) maxKey = key;
      return true;
    },
    take(device) {
      const since = taken.get(device) ?? 0;
      taken.set(device, booked.length);
      if (device >= CHAINED_DEVICES) return undefined;
      const rowids: number[] = [];
      for (let i = (lastOf[device] ?? 0) - 1; i >= since; i = booked.rows[i * FIELDS + BEFORE]) rowids.push(booked.rows[i * FIELDS + ROWID]);
      if (device < lastOf.length) lastOf[device] = 0;
      // Ascending, each once: a row's rowid may be one a row that left had (SQLite gives the greatest plus one).
      rowids.sort((a, b) => a - b);
      const runs = createRunList();
      for (let j = 0; j < rowids.length; j++) if (j === 0 || rowids[j] !== rowids[j - 1]) runs.add(rowids[j]);
      return runs.json();
    },
    rows() {
      if (taken.size === 0) return booked.length;
      let rows = 0;
      for (let i = 0; i < booked.length; i++) if (inLog(booked, taken, i)) rows++;
      return rows;
    },
    runs(existing) {
      const sorted = byDevice(booked, maxDevice);
      return runsOfOrder(taken.size === 0 && !generation ? sorted : sorted.filter(waits), existing);
    },
    get nextSlice() {
      return generation?.next ?? 0;
    },
    startGeneration(slices) {
      const order = byDevice(booked, maxDevice);
      generation = { end: booked.length, order, cuts: cutsOf(booked, order, slices), next: 1, applied: 0 };
      return booked.length === 0 ? 0 : booked.rows[(booked.length - 1) * FIELDS + ROWID];
    },
    slice(existing) {
      const gen = generation!;
      const from = gen.next === 1 ? 0 : gen.cuts[gen.next - 2];
      const to = gen.cuts[gen.next - 1];
      const part = gen.order.subarray(from, to);
      const runs = runsOfOrder(taken.size === 0 ? part : part.filter(waits), existing);
      if (to > from) gen.applied = booked.rows[gen.order[to - 1] * FIELDS + DEVICE];
      gen.next = gen.next === gen.cuts.length ? 0 : gen.next + 1;
      return { ...runs, lastDevice: gen.applied };
    },
    endGeneration() {
      const { end } = generation!;
      generation = undefined;
      const { rows } = booked;
      rows.copyWithin(0, end * FIELDS, booked.length * FIELDS);
      booked.length -= end;
      // Indexes move down by `end`; a chain that went into the generation's rows ends there.
      for (let i = 0; i < booked.length; i++) rows[i * FIELDS + BEFORE] = rows[i * FIELDS + BEFORE] >= end ? rows[i * FIELDS + BEFORE] - end : -1;
      for (let d = 0; d < lastOf.length; d++) lastOf[d] = lastOf[d] > end ? lastOf[d] - end : 0;
      for (const [device, before] of taken) {
        if (before <= end) taken.delete(device);
        else taken.set(device, before - end);
      }
    },
  };
}
