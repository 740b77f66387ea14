// What a soak run watches of the `dhi serve` process and its store, read from /proc and the file
// system (Linux): resident memory, open descriptors, and the sizes of the database and its WAL.
import { readdirSync, readFileSync, statSync } from 'node:fs';

export interface ServerSample {
  rssBytes: number;
  openFds: number;
  dbBytes: number;
  walBytes: number;
}

const sizeOf = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

/** The size of the WAL of the database `db` now. */
export const walBytesNow = (db: string) => sizeOf(`${db}-wal`);

/** The process `pid` serving the database `db`, now. */
export function sampleServer(pid: number, db: string): ServerSample {
  // VmRSS is in kB.
  const rss = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!rss) throw new Error(`no VmRSS in /proc/${pid}/status: is the server still running?`);
  return {
    rssBytes: Number(rss[1]) * 1024,
    openFds: readdirSync(`/proc/${pid}/fd`).length,
    dbBytes: sizeOf(db),
    walBytes: walBytesNow(db),
  };
}

/** The highest of each figure over the samples of a window (the window's worst). */
export function peakOf(samples: ServerSample[]): ServerSample {
  const peak = (pick: (s: ServerSample) => number) => Math.max(...samples.map(pick));
  return { rssBytes: peak((s) => s.rssBytes), openFds: peak((s) => s.openFds), dbBytes: peak((s) => s.dbBytes), walBytes: peak((s) => s.walBytes) };
}
