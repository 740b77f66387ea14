// Stand-in for the k6 module: sleep() blocks the VU for real; check() counts its passes.
import { log } from './log.js';

const pause = new Int32Array(new SharedArrayBuffer(4));

export function sleep(seconds: number): void {
  log.sleeps.push(seconds);
  Atomics.wait(pause, 0, 0, seconds * 1000);
}

export function check<T>(value: T, checks: Record<string, (v: T) => boolean>): boolean {
  return Object.values(checks).every((c) => c(value));
}
