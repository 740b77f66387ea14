// Retention: time-series values past their TTL, and ended persistent RPCs past theirs, are deleted by
// a cleanup that runs in small steps,
// each a write of its own through group commit, so that a telemetry write pays nothing for it and a
// step holds the event loop for a few milliseconds at most (5,000 rows at ~0.5 µs each).
//
// As in ThingsBoard's SQL store (TimeseriesCleanUpService, cleanup_timeseries_by_ttl), a value
// expires by its timestamp, and latest values stay:
// - the server's TTL (`dhi serve --ttl`, ThingsBoard's ts_key_value_ttl, 0 = none) removes every value
//   older than now - ttl, one series (device, key) after the other in key order, the oldest first;
// - a TTL given with a write (POST .../timeseries/{scope}/{ttl}) counts as ThingsBoard's Cassandra
//   store counts it (computeTtl): 0 is the server's, and with a server TTL the shorter of the two.
//   A value whose TTL is not the server's gets an entry in telemetry_expiry (by expiry), which the
//   cleanup takes first. A value written again at the same ts keeps the entry of the earlier write.
//
// Persistent RPCs (the only ones stored) go as ThingsBoard's RpcCleanUpService takes them: by
// created_time older than now - rpc TTL (`dhi serve --rpc-ttl`, the tenant profile's rpcTtlDays there,
// 0 = kept), the oldest first. Unlike ThingsBoard, a command still live (queued, or delivered and
// awaiting its reply, before its expiry) is left until it has ended, so its outcome is still stored.
//
// The cleanup deletes from the tables only. Rows still in the telemetry log (sqlite-telemetry.ts) are
// acknowledged writes not yet applied, as if written after the step: a later pass takes them. A fold
// never brings back what a step deleted, because every fold takes its rows out of the log, or leaves
// them out once applied (a generation's slices, sqlite-telemetry-log.ts); values with a TTL of their
// own are folded as they are written (ttlWrite).
import type { Database } from 'better-sqlite3';
import { DEVICE_NUM, KEY_ID } from './sqlite-telemetry-log.js';
import type { TelemetryMessage, TelemetryWriter } from './sqlite-telemetry.js';
import type { KvEntry } from './types.js';

/** Rows one step deletes at most, and series it visits at most (~3 µs each when there is nothing to delete). */
const STEP_ROWS = 5000;
const STEP_SERIES = 2000;
/** A ts above every other: a seek past the whole of a series. */
const END_OF_SERIES = Number.MAX_SAFE_INTEGER;

export interface RetentionOptions {
  /** The server's TTL in seconds (0: values are kept unless written with a TTL). */
  ttlSeconds: number;
  /** Ended persistent RPCs created longer ago than this many seconds are deleted (0: kept). */
  rpcTtlSeconds: number;
  /** How often a cleanup pass starts. */
  intervalMs: number;
}

export interface Retention {
  /** The expiry (ms) of values written with this TTL at `ts`, or undefined when none or the server's applies. */
  expiryOf(ttlSeconds: number, ts: number): number | undefined;
  /** Inside a write: the expiry entries of a device's values written with a TTL of their own. */
  addExpiries(deviceId: string, entries: KvEntry[], ttlSeconds: number): void;
  /** Starts the passes; stop() ends them after the step in flight. */
  start(write: <T>(fn: () => T) => Promise<T>): void;
  stop(): Promise<void>;
}

export function createRetention(db: Database, { ttlSeconds, rpcTtlSeconds, intervalMs }: RetentionOptions): Retention {
  const q = {
    addExpiry: db.prepare(`INSERT OR REPLACE INTO telemetry_expiry (expires, device, key, ts)
      VALUES (?, ${DEVICE_NUM('?')}, ${KEY_ID('?')}, ?)`),
    expired: db.prepare('SELECT expires, device, key, ts FROM telemetry_expiry WHERE expires <= ? ORDER BY expires LIMIT ?'),
    deleteValue: db.prepare('DELETE FROM telemetry WHERE device = ? AND key = ? AND ts = ?'),
    deleteExpiry: db.prepare('DELETE FROM telemetry_expiry WHERE expires = ? AND device = ? AND key = ? AND ts = ?'),
    nextSeries: db.prepare(`SELECT device, key FROM telemetry WHERE (device, key, ts) > (?, ?, ${END_OF_SERIES})
      ORDER BY device, key, ts LIMIT 1`),
    // The series' values below the cutoff, `limit` of them at most, oldest first.
    deleteOld: db.prepare(`DELETE FROM telemetry WHERE device = @device AND key = @key AND ts < @cutoff
      AND ts <= coalesce((SELECT ts FROM telemetry WHERE device = @device AND key = @key AND ts < @cutoff
      ORDER BY ts LIMIT 1 OFFSET @limit - 1), @cutoff)`),
    // Live: queued, or a two-way command delivered and awaiting its reply, before its expiry.
    deleteOldRpcs: db.prepare(`DELETE FROM rpc WHERE id IN (SELECT id FROM rpc WHERE created_time < @cutoff
      AND NOT (expiration_time > @now AND (status = 'QUEUED' OR (status = 'DELIVERED' AND oneway = 0)))
      ORDER BY created_time LIMIT @limit)`),
  };
  const serverMs = ttlSeconds * 1000;
  const rpcMs = rpcTtlSeconds * 1000;
  /** The last series a pass finished: the next step goes on after it. */
  let cursor = { device: 0, key: 0 };
  let timer: NodeJS.Timeout | undefined;
  let stepping: Promise<unknown> | undefined;
  let stopped = false;

  /** Values written with their own TTL whose expiry has come. */
  function deleteExpired(now: number, budget: number): number {
    const due = q.expired.all(now, budget) as { expires: number; device: number; key: number; ts: number }[];
    for (const e of due) {
      q.deleteValue.run(e.device, e.key, e.ts);
      q.deleteExpiry.run(e.expires, e.device, e.key, e.ts);
    }
    return due.length;
  }

  /** Values older than the server's TTL, series after series from the cursor; true at the end of a pass. */
  function deleteOld(now: number, budget: number): boolean {
    const cutoff = now - serverMs;
    let deleted = 0;
    for (let visited = 0; visited < STEP_SERIES; visited++) {
      const series = q.nextSeries.get(cursor.device, cursor.key) as { device: number; key: number } | undefined;
      if (!series) {
        cursor = { device: 0, key: 0 };
        return true;
      }
      const limit = budget - deleted;
      const changes = q.deleteOld.run({ ...series, cutoff, limit }).changes;
      deleted += changes;
      // A series with more to delete than the budget is taken up again by the next step.
      if (changes === limit) return false;
      cursor = series;
    }
    return false;
  }

  /** One step: true when the pass is over. */
  function step(): boolean {
    const now = Date.now();
    const rpcs = rpcMs === 0 ? 0 : q.deleteOldRpcs.run({ cutoff: now - rpcMs, now, limit: STEP_ROWS }).changes;
    if (rpcs === STEP_ROWS) return false;
    const budget = STEP_ROWS - rpcs;
    const expired = deleteExpired(now, budget);
    if (expired === budget) return false;
    return serverMs === 0 || deleteOld(now, budget - expired);
  }

  function schedule(write: <T>(fn: () => T) => Promise<T>, delay: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      // A failed step (the store cannot take writes) is taken up by the next pass.
      stepping = write(step).then((over) => schedule(write, over ? intervalMs : 0), () => schedule(write, intervalMs));
    }, delay);
    // The cleanup keeps no process alive.
    timer.unref();
  }

  function expiryOf(ttl: number, ts: number): number | undefined {
    // ThingsBoard's computeTtl: 0 is the server's TTL, and the server's TTL bounds any other.
    const effective = serverMs > 0 && ttl > 0 ? Math.min(ttl * 1000, serverMs) : ttl * 1000;
    return effective === 0 || effective === serverMs ? undefined : ts + effective;
  }

  return {
    expiryOf,
    addExpiries(deviceId, entries, ttl) {
      for (const e of entries) {
        const expires = expiryOf(ttl, e.ts);
        if (expires !== undefined) q.addExpiry.run(expires, deviceId, e.key, e.ts);
      }
    },
    start(write) {
      schedule(write, intervalMs);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await stepping;
    },
  };
}

/**
 * The write of a message with a TTL of its own (rare: the control API), run alone through group
 * commit's write(): its rows, gathered and flushed at once, folded out of the telemetry log with the
 * device's earlier ones (so that the cleanup finds them in the tables when they expire, and no later
 * fold brings them back), and their expiry entries.
 */
export function ttlWrite(telemetry: TelemetryWriter, retention: Retention) {
  return (message: TelemetryMessage & { ttlSeconds: number }): void => {
    try {
      telemetry.add(message);
      telemetry.flush();
      telemetry.settle(message.deviceId);
      retention.addExpiries(message.deviceId, message.entries, message.ttlSeconds);
    } catch (error) {
      // Key ids and device numbers learnt inside this write's savepoint are gone with it.
      telemetry.rolledBack();
      throw error;
    }
  };
}
