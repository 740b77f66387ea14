// Operation 1: telemetry upload in forms (a) key-values, (b) an array, (c) {ts, values}.
import { appendEntries } from '../kv-values.js';
import type { ServerContext } from '../context.js';
import { replyWritten, type Handlers } from '../handler.js';
import type { KvEntry } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

type Timestamped = Schema<'TimestampedValues'>;

/** Form (c) is an object carrying both ts and values (the contract's if/then); any other object is form (a). */
export function appendRecord(record: Schema<'TelemetryRecord'>, now: number, typeCast: boolean, out: KvEntry[]): void {
  if ('ts' in record && 'values' in record) appendEntries((record as Timestamped).values, (record as Timestamped).ts, typeCast, out);
  else appendEntries(record, now, typeCast, out);
}

export function telemetryHandlers({ store, config }: ServerContext): Handlers {
  return {
    postTelemetry(request, reply) {
      const now = Date.now();
      const entries: KvEntry[] = [];
      const { body } = request;
      if (Array.isArray(body)) for (const record of body) appendRecord(record, now, config.typeCast, entries);
      else appendRecord(body, now, config.typeCast, entries);
      if (entries.length > 0) store.writeTelemetry(request.device.id, entries, replyWritten, reply);
      else reply.code(200).send();
    },
  };
}
