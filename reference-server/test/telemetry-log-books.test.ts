// Store.foldTelemetryLog (what dhi bench asks around each measured round): every row waiting in the
// telemetry log is folded into the time series, and the log's books count the rows gathered, those
// written straight into the time series, and the folds of the whole log.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../store/sqlite.js';
import { newDevice } from '../device-records.js';
import { tempDir, writeTelemetry } from './helpers.js';
import type { KvEntry } from '../store/types.js';

const entries = (ts: number): KvEntry[] => ['a', 'b', 'c'].map((key) => ({ key, ts, type: 'LONG', value: ts }));

/** Rows of a table of the store's file, read with SQL as an outside reader would. */
function rowsOf(path: string, table: string): number {
  const file = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return file.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } finally {
    file.close();
  }
}

describe('folding the telemetry log on request', () => {
  it('folds every row waiting, and counts the rows gathered, those that skipped the log and the folds of the whole log', async () => {
    const path = join(tempDir(), 'books.db');
    const store = createSqliteStore(path);
    try {
      // Five devices: a batch of all of them goes to the log (more than go straight into the time series).
      const devices = ['one', 'two', 'three', 'four', 'five'].map((name) => newDevice({ name, profileId: store.defaultProfile().id }));
      await store.write(() => devices.forEach((device) => store.insertDevice(device)));
      // Nothing written: nothing to fold.
      expect(await store.foldTelemetryLog()).toEqual({ rows: 0, direct: 0, folds: 0 });
      await Promise.all(Array.from({ length: 10 }, (_, i) => writeTelemetry(store, devices[i % 5].id, entries(i + 1))));
      // A message the store refuses gathers no row.
      await expect(writeTelemetry(store, devices[0].id, [{ key: 'a', ts: Number.NaN, type: 'LONG', value: 1 }])).rejects.toThrow();
      expect(rowsOf(path, 'telemetry_log')).toBe(30);
      expect(await store.foldTelemetryLog()).toEqual({ rows: 30, direct: 0, folds: 1 });
      expect(rowsOf(path, 'telemetry_log')).toBe(0);
      expect(rowsOf(path, 'telemetry')).toBe(30);
      // Nothing waits: no fold runs.
      expect(await store.foldTelemetryLog()).toEqual({ rows: 30, direct: 0, folds: 1 });
      // One device's first batch goes to the log; its second skips it, folding the first's rows first.
      await writeTelemetry(store, devices[1].id, entries(20));
      await writeTelemetry(store, devices[1].id, entries(21));
      expect([rowsOf(path, 'telemetry_log'), rowsOf(path, 'telemetry')]).toEqual([0, 36]);
      // Nothing waits: no fold runs.
      expect(await store.foldTelemetryLog()).toEqual({ rows: 36, direct: 3, folds: 1 });
      await Promise.all(devices.map((device) => writeTelemetry(store, device.id, entries(40))));
      expect(await store.foldTelemetryLog()).toEqual({ rows: 51, direct: 3, folds: 2 });
      expect(rowsOf(path, 'telemetry_log')).toBe(0);
    } finally {
      await store.close();
    }
  });
});
