// One number format for everything the simulator prints: latencies in milliseconds and rates per
// second with one decimal, counts as integers.

export function formatMs(ms: number): string {
  return ms.toFixed(1);
}

export function formatRate(perSecond: number): string {
  return perSecond.toFixed(1);
}
