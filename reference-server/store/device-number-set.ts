// A set of device numbers (sqlite-schema.ts: a counter numbers the devices from 1, never reusing a
// number) as a byte a number. The telemetry writer marks the device of every message as having rows
// in the log, and clears the marks at each fold of every row: with 10,000 devices a Set's add took 0.8 %
// of the event loop's samples (~0.24 µs a message), hashing into a table of 10,000 entries that it
// built again after every clear. A byte array of the fleet's size costs an index, and fill(0) at a fold.
export interface DeviceNumberSet {
  readonly size: number;
  add(num: number): void;
  has(num: number): boolean;
  delete(num: number): void;
  clear(): void;
}

export function createDeviceNumberSet(nums: Iterable<number>): DeviceNumberSet {
  let flags = new Uint8Array(1024);
  let size = 0;
  const set: DeviceNumberSet = {
    get size() {
      return size;
    },
    add(num) {
      if (num >= flags.length) {
        const grown = new Uint8Array(Math.max(num + 1, flags.length * 2));
        grown.set(flags);
        flags = grown;
      }
      if (flags[num] === 0) {
        flags[num] = 1;
        size++;
      }
    },
    has: (num) => flags[num] === 1,
    delete(num) {
      if (flags[num] !== 1) return;
      flags[num] = 0;
      size--;
    },
    clear() {
      if (size === 0) return;
      flags.fill(0);
      size = 0;
    },
  };
  for (const num of nums) set.add(num);
  return set;
}
