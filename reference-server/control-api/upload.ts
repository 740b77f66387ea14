// The OTA upload's multipart body: read here, before validation, into {file: {fileName, mimetype,
// data}}, so that the handler sees plain values and a broken form is a 400 (busboy's own errors
// would be 500s), a file over the limit a 413. Form fields fill in query parameters the URL lacks,
// as a Spring @RequestParam reads both (the Python REST client sends checksumAlgorithm as a part).
import multipart from '@fastify/multipart';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { ApiError, ErrorCode, badRequest, payloadTooLarge } from '../errors.js';
import { fastifyPath } from '../routes.js';

export interface UploadedFile {
  fileName: string;
  mimetype: string;
  data: Buffer;
}

export const UPLOAD_PATH = '/api/otaPackage/{otaPackageId}';
const UPLOAD_ROUTE = fastifyPath(UPLOAD_PATH);

/** The uploaded `file` part, or undefined when the request carried none (or was not multipart). */
export function uploadedFile(request: { isMultipart(): boolean; body: unknown }): UploadedFile | undefined {
  const file = request.isMultipart() ? (request.body as { file?: UploadedFile } | undefined)?.file : undefined;
  return file && Buffer.isBuffer(file.data) ? file : undefined;
}

/** Reads the multipart body into {file: {fileName, mimetype, data}}; other parts are drained. */
const readUpload: preValidationAsyncHookHandler = async (request) => {
  if (!request.isMultipart()) return;
  const body: { file?: UploadedFile } = {};
  const query = request.query as Record<string, unknown>;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        if (query[part.fieldname] === undefined) query[part.fieldname] = part.value;
        continue;
      }
      // busboy hits the limit and then reads the rest of the part to discard it; fail at once instead.
      part.file.once('limit', () => part.file.destroy(payloadTooLarge(request.routeOptions.bodyLimit)));
      const data = await part.toBuffer();
      if (part.fieldname === 'file') body.file = { fileName: part.filename, mimetype: part.mimetype, data };
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const { statusCode, message } = error as { statusCode?: number; message: string };
    throw statusCode === 413 ? new ApiError(413, ErrorCode.BAD_REQUEST_PARAMS, message) : badRequest(`Invalid multipart body: ${message}`);
  }
  request.body = body;
};

/**
 * Registers the upload route (through `registerRoute`) in a context of its own with the multipart
 * plugin: the plugin's hooks run on every request of the context that registers it, and the device
 * API's hot paths should not pay for them.
 */
export async function registerUploadRoute(
  app: FastifyInstance,
  fileSizeLimit: number | undefined,
  registerRoute: (context: FastifyInstance) => void,
): Promise<void> {
  await app.register(async (context) => {
    await context.register(multipart, { limits: { fileSize: fileSizeLimit, files: 1 } });
    // The upload reads its body this way, ahead of its own hooks (the required-body check).
    context.addHook('onRoute', (route) => {
      if (route.url !== UPLOAD_ROUTE || route.method !== 'POST') return;
      const own = route.preValidation ? [route.preValidation].flat() : [];
      route.preValidation = [readUpload, ...own];
    });
    registerRoute(context);
  });
}
