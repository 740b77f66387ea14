// Telemetry reads (ThingsBoard TelemetryController.getTimeseries): the latest value per key, or a
// range newest first (orderBy ASC on request) with `limit` per key. Values are strings, as Java
// prints them, unless useStrictDataTypes=true.
import { badRequest } from '../errors.js';
import { splitKeys } from './attributes.js';
import { validatedDevice } from './entities.js';
import type { ServerContext } from '../context.js';
import { sendJsonText, type Handlers } from '../handler.js';
import { timeseriesJson } from '../kv-json.js';
import type { KvEntry } from '../store/types.js';

const DEFAULT_LIMIT = 100;

export function telemetryHandlers({ store }: ServerContext): Handlers {
  return {
    getDeviceTimeseries(request, reply) {
      const { deviceId } = request.params;
      validatedDevice(store, deviceId);
      const { query } = request;
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
      return sendJsonText(reply, 200, timeseriesJson(entries, query.useStrictDataTypes === true));
    },
  };
}
