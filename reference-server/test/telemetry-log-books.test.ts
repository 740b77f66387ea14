// Store.foldTelemetryLog (what dhi bench asks around each measured round): every row waiting in the
// telemetry log is folded into the time series, and the log's books count the rows gathered into it
// and the folds of the whole log.
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
  it('folds every row waiting, and counts the rows gathered and the folds of the whole log', async () => {
    const path = join(tempDir(), 'books.db');
    const store = createSqliteStore(path);
    try {
      const devices = ['one', 'two'].map((name) => newDevice({ name, profileId: store.defaultProfile().id }));
      await store.write(() => devices.forEach((device) => store.insertDevice(device)));
      // Nothing written: nothing to fold.
      expect(await store.foldTelemetryLog()).toEqual({ rows: 0, folds: 0 });
      await Promise.all(Array.from({ length: 10 }, (_, i) => writeTelemetry(store, devices[i % 2].id, entries(i + 1))));
      // A message the store refuses gathers no row.
      await expect(writeTelemetry(store, devices[0].id, [{ key: 'a', ts: Number.NaN, type: 'LONG', value: 1 }])).rejects.toThrow();
      expect(rowsOf(path, 'telemetry_log')).toBe(30);
      expect(await store.foldTelemetryLog()).toEqual({ rows: 30, folds: 1 });
      expect(rowsOf(path, 'telemetry_log')).toBe(0);
      expect(rowsOf(path, 'telemetry')).toBe(30);
      // Nothing waits: no fold runs.
      expect(await store.foldTelemetryLog()).toEqual({ rows: 30, folds: 1 });
      await writeTelemetry(store, devices[1].id, entries(20));
      expect(await store.foldTelemetryLog()).toEqual({ rows: 33, folds: 2 });
      expect(rowsOf(path, 'telemetry_log')).toBe(0);
    } finally {
      await store.close();
    }
  });
});
