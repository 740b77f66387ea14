// The telemetry writer's set of devices with rows in the log (store/device-number-set.ts): a Set's
// answers for device numbers, past its first 1,024 too.
import { describe, expect, it } from 'vitest';
import { createDeviceNumberSet } from '../store/device-number-set.js';

describe('createDeviceNumberSet', () => {
  it('answers as a Set of the same numbers, through adds, deletes, growth and clears', () => {
    const set = createDeviceNumberSet([3, 7, 3]);
    const same = new Set([3, 7]);
    const expectSame = () => {
      expect(set.size).toBe(same.size);
      for (const num of [0, 1, 3, 7, 1023, 1024, 5000, 70_000]) expect(set.has(num), `has ${num}`).toBe(same.has(num));
    };
    expectSame();
    for (const num of [1, 1024, 70_000, 1024]) {
      set.add(num);
      same.add(num);
    }
    expectSame();
    for (const num of [7, 7, 5000, 1024]) {
      set.delete(num);
      same.delete(num);
    }
    expectSame();
    set.clear();
    same.clear();
    expectSame();
    set.add(5000);
    same.add(5000);
    expectSame();
  });
});
