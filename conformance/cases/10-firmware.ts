// Operation 10: GET /api/v1/{token}/firmware?title=..&version=..[&size=..&chunk=..]
import { createHash } from 'node:crypto';
import type { Case, CaseRun } from '../case.js';
import { at, bodyHasEntries, bodyIsEmpty, checkAll, headerMatches, isTrue, mediaTypeIs, statusIs, statusIsSuccess, valueEquals } from '../checks.js';
import type { OtaPackage, PackageType } from '../control/server-side.js';
import { changeDuringPoll, DELIVERY_TIMEOUT_MS, notBeforeChange, op, unanswered } from './kit.js';
import { invalidInput } from './patterns.js';

const SIZE = 1037;
const CHUNK = 100;
const FILE_NAME = 'firmware.bin';
/** The type createPackage uploads the file with. */
const CONTENT_TYPE = 'application/octet-stream';

/** Deterministic bytes that are not all alike, so an offset error changes the checksum. */
function packageBytes(): Buffer {
  return Buffer.from(Array.from({ length: SIZE }, (_, i) => (i * 7 + (i >> 8)) & 0xff));
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function createPackage(t: CaseRun, version = '1.0.0', type: PackageType = 'FIRMWARE'): Promise<OtaPackage> {
  const profileId = (await t.control.getDevice(t.devices[0].id)).deviceProfileId.id;
  return t.control.createPackage({ type, title: `${t.unique}-${type.toLowerCase()}`, version, profileId, bytes: packageBytes(), fileName: FILE_NAME });
}

async function assigned(t: CaseRun, type: PackageType = 'FIRMWARE'): Promise<OtaPackage> {
  const pkg = await createPackage(t, '1.0.0', type);
  await t.control.assignPackage(t.devices[0].id, type, pkg.id);
  return pkg;
}

function fwAttributes(pkg: OtaPackage): Record<string, unknown> {
  return { fw_title: pkg.title, fw_version: pkg.version, fw_checksum: pkg.checksum, fw_checksum_algorithm: pkg.checksumAlgorithm };
}

function checksumMatches(check: string, bytes: Buffer, pkg: OtaPackage) {
  return isTrue(check, sha256(bytes) === pkg.checksum.toLowerCase(), `${SIZE} bytes with SHA-256 ${pkg.checksum}`, `${bytes.length} bytes with SHA-256 ${sha256(bytes)}`);
}

export const firmwareCases: Case[] = [
  {
    id: '10.1.1',
    title: 'assigning firmware sets fw_title, fw_version, fw_checksum, fw_checksum_algorithm',
    requirement: 'When a firmware update is started the service sets these shared attributes, readable through operation 3 (specification, Attributes and Events).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const pkg = await assigned(t);
      const reply = await t.device(op.getAttributes(t.devices[0].token, { sharedKeys: Object.keys(fwAttributes(pkg)) }));
      t.expect(statusIsSuccess()(reply), bodyHasEntries(fwAttributes(pkg), 'shared')(reply));
    },
  },
  {
    id: '10.1.2',
    title: 'assigning firmware during an open attribute poll delivers the fw_* attributes',
    requirement: 'The fw_* shared attributes of a firmware update are readable through operation 4 (specification, Events).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      // A retry (the assignment raced the poll) assigns another version of the package.
      let pkg = await createPackage(t);
      const result = await changeDuringPoll(t, op.attributeUpdates(t.devices[0].token, DELIVERY_TIMEOUT_MS), async (attempt) => {
        if (attempt > 1) pkg = await createPackage(t, `1.0.${attempt - 1}`);
        await t.control.assignPackage(t.devices[0].id, 'FIRMWARE', pkg.id);
      });
      if (!result.reply) return t.expect(unanswered(result, 'a poll while firmware was assigned'));
      t.expect(notBeforeChange(result), statusIs(200)(result.reply), bodyHasEntries(fwAttributes(pkg))(result.reply));
    },
  },
  {
    id: '10.1.3',
    title: 'the whole package downloads and matches fw_checksum',
    requirement: 'Operation 10 returns the firmware content of the update the fw_* attributes announce (specification, rule 7); without size (or with size=0) the whole file.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const pkg = await assigned(t);
      for (const query of [{ title: pkg.title, version: pkg.version }, { title: pkg.title, version: pkg.version, size: 0, chunk: 0 }]) {
        const reply = await t.device(op.firmware(t.devices[0].token, query));
        t.expect(statusIs(200)(reply), checksumMatches(`checksumMatches(${new URLSearchParams(query as never).toString()})`, reply.bytes, pkg));
      }
    },
  },
  {
    id: '10.1.4',
    title: `a chunked download (size=${CHUNK}) reassembles to the package`,
    requirement: `Chunk n of size s is bytes [n*s, min(len, (n+1)*s)); chunks 0..ceil(len/s) reassemble to the package whose checksum is fw_checksum (contract; ThingsBoard).`,
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const pkg = await assigned(t);
      const last = Math.ceil(SIZE / CHUNK);
      const parts: Buffer[] = [];
      for (let chunk = 0; chunk < last; chunk++) {
        const reply = await t.device(op.firmware(t.devices[0].token, { title: pkg.title, version: pkg.version, size: CHUNK, chunk }));
        t.expect(statusIs(200)(reply), valueEquals(`chunkLength(${chunk})`, reply.bytes.length, Math.min(CHUNK, SIZE - chunk * CHUNK)));
        parts.push(reply.bytes);
      }
      t.expect(checksumMatches('reassembledChecksumMatches', Buffer.concat(parts), pkg));
      const past = await t.device(op.firmware(t.devices[0].token, { title: pkg.title, version: pkg.version, size: CHUNK, chunk: last }));
      t.expect(...checkAll(past, statusIs(200), bodyIsEmpty()).map((f) => f && { ...f, severity: 'SHOULD' as const, message: `chunk ${last} is past the end (ThingsBoard: 200, empty)` }));
    },
  },
  {
    id: '10.6.1',
    title: 'the download names the file (Content-Disposition, x-filename)',
    requirement: 'ThingsBoard answers with Content-Disposition: attachment;filename=<file> and x-filename: <file>.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const pkg = await assigned(t);
      const reply = await t.device(op.firmware(t.devices[0].token, { title: pkg.title, version: pkg.version }));
      t.expect(...checkAll(reply, statusIs(200), headerMatches('content-disposition', /attachment;\s*filename="?firmware\.bin"?/), headerMatches('x-filename', /^firmware\.bin$/)));
    },
  },
  {
    id: '10.6.2',
    title: 'with no firmware assigned the download is 404',
    requirement: 'ThingsBoard answers 404 when no package is assigned to the device or its profile (specification: 404 for a resource not found).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      t.expect(statusIs(404)(await t.device(op.firmware(t.devices[0].token, { title: 'none', version: '0' }))));
    },
  },
  {
    id: '10.6.3',
    title: 'a title other than the assigned package\'s (case differs) is 400',
    requirement: 'ThingsBoard answers 400 when title or version is not exactly (case-sensitively) the assigned package\'s.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const pkg = await assigned(t);
      t.expect(statusIs(400)(await t.device(op.firmware(t.devices[0].token, { title: pkg.title.toUpperCase(), version: pkg.version }))));
    },
  },
  {
    id: '10.6.4',
    title: 'the software twin: /software downloads the assigned software package',
    requirement: 'ThingsBoard serves the device\'s software package at /api/v1/{token}/software like firmware (sw_* attributes).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const pkg = await assigned(t, 'SOFTWARE');
      const reply = await t.device({ ...op.firmware(t.devices[0].token, { title: pkg.title, version: pkg.version }), path: op.path(t.devices[0].token, 'software'), operationId: 'getSoftware' });
      t.expect(statusIs(200)(reply), checksumMatches('checksumMatches', reply.bytes, pkg));
      const attributes = await t.device(op.getAttributes(t.devices[0].token, { sharedKeys: ['sw_title', 'sw_version', 'sw_checksum'] }));
      t.expect(bodyHasEntries({ sw_title: pkg.title, sw_version: pkg.version, sw_checksum: pkg.checksum }, 'shared')(attributes));
    },
  },
  {
    id: '10.1.5',
    title: 'a title or version other than the assigned package\'s does not get the package',
    requirement: 'title and version name the target firmware (specification, operation 10): a request naming another one is not served the assigned package (ThingsBoard: 400).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const pkg = await assigned(t);
      for (const query of [{ title: pkg.title, version: `${pkg.version}-other` }, { title: `${pkg.title}-other`, version: pkg.version }]) {
        const reply = await t.device(op.firmware(t.devices[0].token, query));
        const label = new URLSearchParams(query).toString();
        t.expect(isTrue(`notServed(${label})`, reply.status >= 400 && reply.status < 500, 'a 4xx answer, not the package', `${reply.status}, ${reply.bytes.length} bytes`), at('SHOULD', statusIs(400)(reply)));
      }
    },
  },
  {
    id: '10.6.5',
    title: 'the download is fw_size bytes, with the package\'s content type',
    requirement: 'ThingsBoard sets fw_size with the other fw_* attributes and serves the package with the content type it was uploaded with.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const pkg = await assigned(t);
      const attributes = await t.device(op.getAttributes(t.devices[0].token, { sharedKeys: ['fw_size'] }));
      const reply = await t.device(op.firmware(t.devices[0].token, { title: pkg.title, version: pkg.version }));
      t.expect(bodyHasEntries({ fw_size: SIZE }, 'shared')(attributes), statusIs(200)(reply), valueEquals('downloadIsFwSizeBytes', reply.bytes.length, SIZE), mediaTypeIs(CONTENT_TYPE)(reply));
    },
  },
  {
    id: '10.6.6',
    title: 'with nothing assigned to the device, its profile\'s package is served',
    requirement: 'ThingsBoard serves the device\'s own package, else the one assigned to its device profile.',
    severity: 'SHOULD',
    control: true,
    async run(t) {
      const profileId = await t.control.createProvisionProfile(`${t.unique}-profile`, 'DISABLED', null, null);
      const device = await t.control.createDevice(`${t.unique}-in-profile`, { profileId });
      const pkg = await t.control.createPackage({ type: 'FIRMWARE', title: `${t.unique}-profile-fw`, version: '2.0.0', profileId, bytes: packageBytes(), fileName: FILE_NAME });
      await t.control.assignProfilePackage(profileId, 'FIRMWARE', pkg.id);
      const reply = await t.device(op.firmware(device.token, { title: pkg.title, version: pkg.version }));
      t.expect(statusIs(200)(reply), checksumMatches('profilePackageServed', reply.bytes, pkg));
    },
  },
  invalidInput({
    id: '10.2.1',
    title: 'a download without title and version is 400',
    requirement: 'title and version name the target firmware (specification, operation 10); a missing request parameter is 400 (specification, Errors).',
    request: (k) => op.firmware(k, {}),
  }),
];
