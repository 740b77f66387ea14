// Sends OTA package bytes with ThingsBoard's headers; shared by the device firmware download and
// the control API's package download.
import type { FastifyReply } from 'fastify';
import type { OtaRecord } from './store/types.js';

// Printable ASCII without the characters that would end or quote the header's parameter.
const NOT_PLAIN = /[^\x21-\x7e]|["\\;,]/;
const NOT_PLAIN_ALL = new RegExp(NOT_PLAIN.source, 'g');
// encodeURIComponent leaves these, RFC 5987's attr-char does not allow them.
const NOT_ATTR_CHAR = /['()*]/g;
const percent = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;

/**
 * ThingsBoard's `attachment;filename=NAME` for a plain ASCII name. Any other name (a title outside
 * Latin-1 cannot go into a header at all) adds RFC 6266's `filename*=UTF-8''...` after an ASCII
 * stand-in; X-Filename then carries the name percent-encoded (RFC 5987), as filename* does.
 */
export function fileNameHeaders(fileName: string): { disposition: string; xFilename: string } {
  if (fileName !== '' && !NOT_PLAIN.test(fileName)) {
    return { disposition: `attachment;filename=${fileName}`, xFilename: fileName };
  }
  const encoded = encodeURIComponent(fileName).replace(NOT_ATTR_CHAR, percent);
  return { disposition: `attachment;filename=${fileName.replace(NOT_PLAIN_ALL, '_')};filename*=UTF-8''${encoded}`, xFilename: encoded };
}

export function sendPackageBytes(reply: FastifyReply, ota: OtaRecord, bytes: Buffer): FastifyReply {
  const { disposition, xFilename } = fileNameHeaders(ota.fileName ?? `${ota.title}-${ota.version}.bin`);
  return reply
    .code(200)
    .header('content-type', ota.contentType ?? 'application/octet-stream')
    .header('content-disposition', disposition)
    .header('x-filename', xFilename)
    .send(bytes);
}
