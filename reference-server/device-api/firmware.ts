// Operation 10 and its software twin: the package assigned to the device (else to its profile),
// whole or in `size`-byte chunks.
import { badRequest, notFound } from '../errors.js';
import { sendPackageBytes } from '../package-bytes.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import type { Handlers, RouteOf } from '../handler.js';
import type { OtaType } from '../store/types.js';

export function firmwareHandlers({ store }: ServerContext): Handlers {
  function download(type: OtaType, request: FastifyRequest<RouteOf<'getFirmware' | 'getSoftware'>>, reply: FastifyReply) {
    const device = request.device;
    const field = type === 'FIRMWARE' ? 'firmwareId' : 'softwareId';
    const packageId = device[field] ?? store.profileById(device.profileId)?.[field] ?? null;
    const ota = packageId ? store.otaById(packageId) : undefined;
    const data = ota && !ota.url ? store.otaData(ota.id) : undefined;
    const what = type === 'FIRMWARE' ? 'firmware' : 'software';
    if (!ota || !data) throw notFound(`No ${what} package with data is assigned to the device`);
    const { title, version, size = 0, chunk = 0 } = request.query;
    if (title !== ota.title || version !== ota.version) {
      throw badRequest(`Requested ${what} ${title} ${version} is not the assigned package`);
    }
    const start = Math.min(data.length, chunk * size);
    const bytes = size > 0 ? data.subarray(start, Math.min(data.length, start + size)) : data;
    return sendPackageBytes(reply, ota, bytes);
  }
  return {
    getFirmware: (request, reply) => download('FIRMWARE', request, reply),
    getSoftware: (request, reply) => download('SOFTWARE', request, reply),
  };
}
