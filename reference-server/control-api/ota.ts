// OTA packages (ThingsBoard OtaPackageController): create the info, upload the file (multipart part
// `file`) with its checksum, read, download, list (all, or a profile's assignable ones), delete. Assignment is done on devices and
// profiles (ota-assignment.ts).
import { randomUUID } from 'node:crypto';
import { badRequest, notFound } from '../errors.js';
import { checksum } from './checksums.js';
import { uploadedFile } from './upload.js';
import { sendPackageBytes } from '../package-bytes.js';
import { entityId, kept, orNotFound, optionalEntityId, pageData, pageQuery, refId, TENANT } from './entities.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { JsonValue, OtaRecord, Store } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

type OtaInput = Schema<'OtaPackageInput'>;

const FILE_NAME_MAX = 255;
// Letters and digits of any script stay (the download names them with RFC 6266 filename*).
const UNSAFE_FILE_NAME = /[^\p{L}\p{N}._-]/gu;
const MEDIA_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

/** The uploaded name goes into Content-Disposition: keep its last path segment, letters, digits and `._-` only. */
export function safeFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[/\\]/).pop()!.replace(UNSAFE_FILE_NAME, '_').replace(/^\.+/, '');
  return base.slice(0, FILE_NAME_MAX) || fallback;
}

export function otaJson(o: OtaRecord): Schema<'OtaPackageInfo'> {
  return {
    id: entityId('OTA_PACKAGE', o.id),
    createdTime: o.createdTime,
    tenantId: TENANT,
    deviceProfileId: optionalEntityId('DEVICE_PROFILE', o.profileId),
    type: o.type,
    title: o.title,
    version: o.version,
    tag: o.tag,
    url: o.url,
    hasData: o.dataSize !== null,
    fileName: o.fileName,
    contentType: o.contentType,
    checksumAlgorithm: o.checksumAlgorithm,
    checksum: o.checksum,
    dataSize: o.dataSize,
    externalId: optionalEntityId('OTA_PACKAGE', o.externalId),
    name: o.title,
    additionalInfo: o.additionalInfo,
  };
}

const found = (store: Store, id: string): OtaRecord => orNotFound(store.otaById(id), 'OtaPackage', id);

function saveInfo(store: Store, input: OtaInput): OtaRecord {
  const id = refId(input.id);
  const before = id ? found(store, id) : undefined;
  const profileId = refId(input.deviceProfileId);
  if (input.usesUrl && !input.url?.trim()) throw badRequest('Ota package URL should be specified!');
  if (profileId && !store.profileById(profileId)) throw badRequest('OtaPackage is referencing to non-existent device profile!');
  const ota: OtaRecord = {
    id: before?.id ?? randomUUID(), type: input.type, title: input.title, version: input.version,
    tag: kept(input.tag, before?.tag), url: kept(input.url, before?.url), profileId,
    fileName: before?.fileName ?? null, contentType: before?.contentType ?? null,
    checksumAlgorithm: before?.checksumAlgorithm ?? null, checksum: before?.checksum ?? null,
    dataSize: before?.dataSize ?? null,
    // A parsed body: its objects hold JSON values (the contract types them loosely).
    additionalInfo: kept(input.additionalInfo as JsonValue | undefined, before?.additionalInfo),
    externalId: input.externalId === undefined ? (before?.externalId ?? null) : refId(input.externalId),
    createdTime: before?.createdTime ?? Date.now(),
  };
  if (before?.dataSize != null && (['type', 'title', 'version', 'profileId', 'url'] as const).some((f) => before[f] !== ota[f])) {
    throw badRequest('Updating an OtaPackage that has data is prohibited!');
  }
  try {
    if (before) store.updateOta(ota);
    else store.insertOta(ota);
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw badRequest('OtaPackage with such title and version already exists!');
    }
    throw error;
  }
  return ota;
}

function saveData(store: Store, { ota, data }: { ota: OtaRecord; data: Buffer }): OtaRecord {
  const current = found(store, ota.id);
  if (current.dataSize !== null) throw badRequest('Updating otaPackage data is prohibited!');
  store.updateOta(ota);
  store.setOtaData(ota.id, data);
  return ota;
}

export function otaHandlers({ store }: ServerContext): Handlers {
  const idOf = ({ otaPackageId }: { otaPackageId: string }) => otaPackageId;
  const runSaveInfo = (input: OtaInput) => saveInfo(store, input);
  const runSaveData = (arg: { ota: OtaRecord; data: Buffer }) => saveData(store, arg);

  return {
    async saveOtaPackageInfo(request, reply) {
      return reply.code(200).send(otaJson(await store.write(runSaveInfo, request.body)));
    },

    async uploadOtaPackage(request, reply) {
      const ota = found(store, idOf(request.params));
      if (ota.url) throw badRequest('An OtaPackage with a url has no data to upload');
      const { query } = request;
      const file = uploadedFile(request);
      if (!file) throw badRequest("Required request part 'file' is not present");
      const { data } = file;
      if (data.length === 0) throw badRequest('OtaPackage data should be specified!');
      const computed = checksum(query.checksumAlgorithm, data);
      if (query.checksum && query.checksum.toLowerCase() !== computed) throw badRequest('Wrong otaPackage file!');
      const saved = await store.write(runSaveData, {
        ota: {
          ...ota,
          fileName: safeFileName(file.fileName, `${ota.title}-${ota.version}.bin`),
          contentType: MEDIA_TYPE.test(file.mimetype) ? file.mimetype : 'application/octet-stream',
          checksumAlgorithm: query.checksumAlgorithm,
          checksum: computed,
          dataSize: data.length,
        },
        data,
      });
      return reply.code(200).send(otaJson(saved));
    },

    getOtaPackage(request, reply) {
      return reply.code(200).send(otaJson(found(store, idOf(request.params))));
    },

    // ThingsBoard answers the package without its data here; dhi's getOtaPackage does too.
    getOtaPackageInfo(request, reply) {
      return reply.code(200).send(otaJson(found(store, idOf(request.params))));
    },

    downloadOtaPackage(request, reply) {
      const ota = found(store, idOf(request.params));
      const data = store.otaData(ota.id);
      if (!data) throw notFound(`OtaPackage with id [${ota.id}] has no data`);
      return sendPackageBytes(reply, ota, data);
    },

    getOtaPackages(request, reply) {
      const page = pageQuery(request.query, 'ota');
      return reply.code(200).send(pageData(store.listOta(page), page, otaJson));
    },

    /** The packages of a profile and type that can be assigned: with data or a url. */
    getOtaPackagesByProfile(request, reply) {
      const { deviceProfileId, type } = request.params;
      const page = pageQuery(request.query, 'ota');
      return reply.code(200).send(pageData(store.listOta(page, { profileId: deviceProfileId, type, hasData: true }), page, otaJson));
    },

    async deleteOtaPackage(request, reply) {
      const id = idOf(request.params);
      await store.write(() => {
        found(store, id);
        if (store.otaInUse(id)) throw badRequest('The otaPackage referenced by devices or device profiles cannot be deleted!');
        store.deleteOta(id);
      });
      return reply.code(200).send();
    },
  };
}
