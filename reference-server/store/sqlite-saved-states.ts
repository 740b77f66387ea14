// The device state's one read of the whole fleet (device-state.ts, at start): every device with its
// creation time and those of the state keys it has saved, as server attributes or as latest
// telemetry. Rows are read one at a time (iterate), grouped by device as they come. Latest telemetry
// is read after a fold of the whole ingest log (`readFolded`): acknowledged values may wait there.
import type { Database } from 'better-sqlite3';
import { fromRow, type KvRow } from './sqlite-values.js';
import type { SavedState, Store } from './types.js';

type Row = Omit<KvRow, 'key'> & { deviceId: string; createdTime: number; key: string | null };

export function createSavedStateQuery(db: Database, readFolded: <T>(read: () => T) => Promise<T>): Pick<Store, 'savedStates'> {
  const queries = {
    SERVER_SCOPE: db.prepare(`SELECT d.id AS deviceId, d.created_time AS createdTime, a.key, a.last_update_ts AS ts, a.type, a.value
      FROM devices d LEFT JOIN attributes a ON a.device_id = d.id AND a.scope = 'SERVER_SCOPE'
        AND a.key IN (SELECT value FROM json_each(?))
      ORDER BY d.id`),
    TELEMETRY: db.prepare(`SELECT d.id AS deviceId, d.created_time AS createdTime, s.key, s.ts, s.type, s.value
      FROM devices d LEFT JOIN (SELECT l.device, k.key, l.ts, l.type, l.value FROM telemetry_latest l
        JOIN telemetry_keys k ON k.id = l.key WHERE k.key IN (SELECT value FROM json_each(?))) s ON s.device = d.num
      ORDER BY d.id`),
  };
  return {
    async savedStates(keys, where) {
      const read = () => {
        const states: SavedState[] = [];
        let last: SavedState | undefined;
        for (const row of queries[where].iterate(JSON.stringify(keys)) as IterableIterator<Row>) {
          if (row.deviceId !== last?.deviceId) states.push((last = { deviceId: row.deviceId, createdTime: row.createdTime, entries: [] }));
          if (row.key !== null) last.entries.push(fromRow(row as KvRow));
        }
        return states;
      };
      return where === 'TELEMETRY' ? readFolded(read) : read();
    },
  };
}
