// TelemetryController's key lists and time-series writes for devices: the keys of a device's time
// series and attributes, saving time series through REST (the device's body forms, parsed as the
// device API parses them), and deleting them. Reads of values live in telemetry.ts and attributes.ts.
import { appendRecord } from '../device-api/telemetry.js';
import { badRequest } from '../errors.js';
import { requestKeys } from './request-keys.js';
import { entityRef, telemetryDevice, type TelemetryOperation } from './telemetry-entity.js';
import type { ServerContext } from '../context.js';
import { replyWritten, type Handler, type Handlers } from '../handler.js';
import type { KvEntry, TelemetryDelete } from '../store/types.js';
import type { Query } from '../../spec/types.js';

type DeleteQuery = Query<'deleteDeviceTimeseries'>;
/** The validator fills in the document's defaults of query parameters (validation.ts). */
type DeleteFlags = Required<Pick<DeleteQuery, 'deleteAllDataForKeys' | 'deleteLatest' | 'rewriteLatestIfDeleted'>>;

export function timeseriesHandlers({ store, config }: ServerContext): Handlers {
  const remove = (arg: { deviceId: string; keys: string[]; query: TelemetryDelete }) => store.deleteTelemetry(arg.deviceId, arg.keys, arg.query);
  const deviceId = (params: unknown, operation: TelemetryOperation) => telemetryDevice(store, entityRef(params), operation).id;

  // The scope in the path is ThingsBoard's "ANY" and is not used. A TTL (seconds) is applied as
  // ThingsBoard's Cassandra store applies it: 0 is the server's (store/sqlite-retention.ts).
  const save: Handler<'saveDeviceTimeseries' | 'saveDeviceTimeseriesWithTtl'> = (request, reply) => {
    const ref = entityRef(request.params);
    const now = Date.now();
    const entries: KvEntry[] = [];
    const { body } = request;
    if (Array.isArray(body)) for (const record of body) appendRecord(record, now, config.typeCast, entries);
    else appendRecord(body, now, config.typeCast, entries);
    if (entries.length === 0) throw badRequest('No time series data found in request body!');
    const { id } = telemetryDevice(store, ref, 'WRITE_TELEMETRY');
    store.writeTelemetry(id, entries, replyWritten, reply, (request.params as { ttl?: number }).ttl);
  };

  return {
    async getTimeseriesKeys(request, reply) {
      const id = deviceId(request.params, 'READ_TELEMETRY');
      return reply.code(200).send(await store.readTelemetry(id, (series) => series.keys()));
    },

    getAttributeKeys(request, reply) {
      return reply.code(200).send(store.attributeKeys(deviceId(request.params, 'READ_ATTRIBUTES')));
    },

    getAttributeKeysByScope(request, reply) {
      return reply.code(200).send(store.attributeKeys(deviceId(request.params, 'READ_ATTRIBUTES'), request.params.scope));
    },

    saveDeviceTimeseries: save,
    saveDeviceTimeseriesWithTtl: save,

    async deleteDeviceTimeseries(request, reply) {
      const query = request.query as DeleteQuery & DeleteFlags;
      const keys = requestKeys(query);
      const ref = entityRef(request.params);
      if (keys.length === 0) throw badRequest(`Empty keys: ${JSON.stringify(keys)}`);
      let range: { startTs: number; endTs: number };
      if (query.deleteAllDataForKeys) range = { startTs: 0, endTs: Date.now() };
      else if (query.startTs === undefined || query.endTs === undefined) {
        throw badRequest("When deleteAllDataForKeys is false, start and end timestamp values shouldn't be empty");
      } else range = { startTs: query.startTs, endTs: query.endTs };
      const { id } = telemetryDevice(store, ref, 'WRITE_TELEMETRY');
      await store.write(remove, {
        deviceId: id, keys, query: { ...range, deleteLatest: query.deleteLatest, rewriteLatest: query.rewriteLatestIfDeleted },
      });
      return reply.code(200).send();
    },
  };
}
