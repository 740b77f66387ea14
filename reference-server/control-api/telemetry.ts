// Telemetry reads (ThingsBoard TelemetryController.getLatestTimeseries, getTimeseries and
// getTimeseriesHistory). Without both startTs and endTs: the latest value of each key asked for (a
// key without one answers {"ts": now, "value": null}, as ThingsBoard's latest store does), or of
// every key; with them: a range, raw or aggregated (aggregation.ts). Values are strings, as Java
// prints them, unless useStrictDataTypes=true. Keys come from repeated `key` parameters, else from
// `keys` split at commas as Java's String.split does (kept as sent, trailing empty ones dropped).
import { badRequest } from '../errors.js';
import { aggregationOf, readRange } from './aggregation.js';
import { entityRef, telemetryDevice } from './telemetry-entity.js';
import type { ServerContext } from '../context.js';
import type { FastifyReply } from 'fastify';
import { sendJsonText, type Handlers } from '../handler.js';
import { timeseriesJson, type TsPoint } from '../kv-json.js';
import type { DeviceSeries, KvEntry } from '../store/types.js';
import type { Query } from '../../spec/types.js';
import { requestKeys } from './request-keys.js';

type HistoryQuery = Query<'getTimeseriesHistory'>;
/** The validator fills in the document's defaults of query parameters (validation.ts). */
type Defaulted = Required<Pick<HistoryQuery, 'interval' | 'limit' | 'agg' | 'orderBy' | 'useStrictDataTypes'>>;

export function telemetryHandlers({ store }: ServerContext): Handlers {
  const latest = (series: DeviceSeries, keys: string[]): TsPoint[] => {
    if (keys.length === 0) return series.latest();
    const found = new Map<string, KvEntry>(series.latest(keys).map((e) => [e.key, e]));
    const now = Date.now();
    return keys.map((key) => found.get(key) ?? { key, ts: now, type: null, value: null });
  };

  const range = async (params: unknown, query: HistoryQuery & Defaulted, reply: FastifyReply) => {
    const keys = requestKeys(query);
    const ref = entityRef(params);
    const agg = aggregationOf(query.agg);
    const { id } = telemetryDevice(store, ref, 'READ_TELEMETRY');
    const points = await store.readTelemetry(id, (series) => readRange(series, { ...query, keys, agg }));
    return sendJsonText(reply, 200, timeseriesJson(points, query.useStrictDataTypes));
  };

  return {
    async getDeviceTimeseries(request, reply) {
      const query = request.query as Query<'getDeviceTimeseries'> & Defaulted;
      // Spring maps the request to the range read only when both parameters are present.
      if (query.startTs !== undefined && query.endTs !== undefined) return range(request.params, { ...query, startTs: query.startTs, endTs: query.endTs }, reply);
      const keys = requestKeys(query);
      const { id } = telemetryDevice(store, entityRef(request.params), 'READ_TELEMETRY');
      const blank = keys.find((k) => k.trim() === '');
      if (blank !== undefined) throw badRequest(`Incorrect key ${blank}`);
      const points = await store.readTelemetry(id, (series) => latest(series, keys));
      return sendJsonText(reply, 200, timeseriesJson(points, query.useStrictDataTypes));
    },
    getTimeseriesHistory(request, reply) {
      return range(request.params, request.query as HistoryQuery & Defaulted, reply);
    },
  };
}
