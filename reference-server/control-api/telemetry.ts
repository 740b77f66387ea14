// Telemetry reads (ThingsBoard TelemetryController.getTimeseries): the latest value per key, or a
// range newest first (orderBy ASC on request) with `limit` per key. Values are strings, as Java
// prints them, unless useStrictDataTypes=true.
import { badRequest } from '../errors.js';
import { splitKeys } from './attributes.js';
import { validatedDevice } from './entities.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { JsonValue, KvEntry } from '../store/types.js';

interface TimeseriesQuery {
  keys?: string;
  startTs?: number;
  endTs?: number;
  limit?: number;
  orderBy?: 'ASC' | 'DESC';
  useStrictDataTypes?: boolean;
}

const DEFAULT_LIMIT = 100;

/** Java's Double.toString: 42.0, 1.5, 1.0E7, 1.0E-4. */
export function javaDouble(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
  const abs = Math.abs(n);
  if (abs === 0 || (abs >= 1e-3 && abs < 1e7)) return Number.isInteger(n) ? `${n}.0` : String(n);
  const [mantissa, exponent] = n.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

function stringValue(e: KvEntry): string {
  switch (e.type) {
    case 'DOUBLE':
      return javaDouble(e.value as number);
    case 'JSON':
      return JSON.stringify(e.value);
    default:
      return String(e.value);
  }
}

export function telemetryHandlers({ store }: ServerContext): Handlers {
  return {
    getDeviceTimeseries(request, reply) {
      const { deviceId } = request.params as { deviceId: string };
      validatedDevice(store, deviceId);
      const query = request.query as TimeseriesQuery;
      let keys = splitKeys(query.keys);
      if (!keys?.length) keys = undefined;
      let entries: KvEntry[];
      if (query.startTs === undefined && query.endTs === undefined) {
        entries = store.latestTelemetry(deviceId, keys);
      } else {
        if (query.startTs === undefined || query.endTs === undefined) throw badRequest('startTs and endTs go together');
        if (query.startTs > query.endTs) throw badRequest('startTs must not be after endTs');
        entries = store.telemetryRange(deviceId, {
          keys: keys ?? store.latestTelemetry(deviceId).map((e) => e.key),
          startTs: query.startTs,
          endTs: query.endTs,
          limit: query.limit ?? DEFAULT_LIMIT,
          order: query.orderBy ?? 'DESC',
        });
      }
      const strict = query.useStrictDataTypes === true;
      const out: Record<string, { ts: number; value: JsonValue }[]> = Object.create(null);
      for (const e of entries) (out[e.key] ??= []).push({ ts: e.ts, value: strict ? e.value : stringValue(e) });
      return reply.code(200).send(out);
    },
  };
}
