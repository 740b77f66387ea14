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

/** Linux's USER_HZ: /proc reports CPU time in hundredths of a second. */
const TICKS_PER_SECOND = 100;

const processTicks = (pid: number) => {
  // The fields after the command (which may hold spaces) in parentheses; utime and stime are 14 and 15.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

/**
 * CPU seconds used so far by the whole machine and by the processes `pids` (the soak's own): their
 * difference over a minute is what other programs took, which a p99 on a shared machine depends on.
 */
export function cpuSeconds(pids: number[]): { machine: number; ours: number } {
  // cpu user nice system idle iowait irq softirq steal ...: busy is all but idle and iowait.
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const machine = user + nice + system + irq + softirq + steal;
  return { machine: machine / TICKS_PER_SECOND, ours: pids.reduce((n, pid) => n + processTicks(pid), 0) / TICKS_PER_SECOND };
}
