// One number format for everything the simulator prints: latencies in milliseconds and rates per
// second with one decimal, counts as integers; figures kept in reports rounded to 1 or 3 decimals.

export function formatMs(ms: number): string {
  return ms.toFixed(1);
}

export function formatRate(perSecond: number): string {
  return perSecond.toFixed(1);
}

export const round1 = (n: number) => Math.round(n * 10) / 10;

export const round3 = (n: number) => Math.round(n * 1000) / 1000;
