// One clock for every latency the simulator measures: the machine's CLOCK_MONOTONIC, in
// milliseconds. Node's performance.now() and process.hrtime() both read it (libuv's uv_hrtime),
// but performance.now() counts from each process's own start; adding the offset once makes the
// values comparable between the simulator's processes on one machine (the driver stamps an RPC or
// an attribute write in the engine, the device that receives it reads the clock in a worker).
// It is never compared with the server's clock, and it does not jump with NTP or settimeofday.

function offset(): number {
  // Each reading errs low by the time between its two calls (the first pays for lazy set-up),
  // so the largest of a few readings is the closest.
  let best = -Infinity;
  for (let i = 0; i < 5; i++) best = Math.max(best, Number(process.hrtime.bigint()) / 1e6 - performance.now());
  return best;
}

const OFFSET_MS = offset();

/** Milliseconds of the machine-wide monotonic clock (sub-millisecond precision). */
export function monoNow(): number {
  return OFFSET_MS + performance.now();
}
