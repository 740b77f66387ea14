// Sends OTA package bytes with ThingsBoard's headers; shared by the device firmware download and
// the control API's package download.
import type { FastifyReply } from 'fastify';
import type { OtaRecord } from './store/types.js';

export function sendPackageBytes(reply: FastifyReply, ota: OtaRecord, bytes: Buffer): FastifyReply {
  const fileName = ota.fileName ?? `${ota.title}-${ota.version}.bin`;
  return reply
    .code(200)
    .header('content-type', ota.contentType ?? 'application/octet-stream')
    .header('content-disposition', `attachment;filename=${fileName}`)
    .header('x-filename', fileName)
    .send(bytes);
}
