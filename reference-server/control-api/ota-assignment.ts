// Assigning an OTA package to a device (or to its profile, for devices without their own) sets the
// shared attributes fw_title, fw_version, fw_tag, fw_size, fw_checksum, fw_checksum_algorithm and
// fw_url (sw_* for software) at once, as ThingsBoard's DefaultOtaPackageStateService; attributes the
// package lacks, or all of them on unassignment, are deleted. Both reach the device's open polls.
import type { ServerContext } from '../context.js';
import type { DeviceRecord, KvEntry, OtaType, ProfileRecord } from '../store/types.js';

const FIELDS = ['title', 'version', 'tag', 'size', 'checksum', 'checksum_algorithm', 'url'] as const;
const PREFIX: Record<OtaType, string> = { FIRMWARE: 'fw_', SOFTWARE: 'sw_' };
export const OTA_FIELD = { FIRMWARE: 'firmwareId', SOFTWARE: 'softwareId' } as const;
export const OTA_TYPES: OtaType[] = ['FIRMWARE', 'SOFTWARE'];

export interface OtaAssignment {
  /** The package that applies to the device: its own, else its profile's. */
  effective(device: DeviceRecord, type: OtaType, profile?: ProfileRecord): string | null;
  /** Publish the attributes of the package now in effect (null: unassigned) when it changed. */
  apply(deviceId: string, type: OtaType, before: string | null, after: string | null): Promise<void>;
}

export function createOtaAssignment({ store, attributes }: ServerContext): OtaAssignment {
  function entriesOf(type: OtaType, packageId: string | null): KvEntry[] {
    const ota = packageId ? store.otaById(packageId) : undefined;
    if (!ota) return [];
    const ts = Date.now();
    const prefix = PREFIX[type];
    const values: Record<(typeof FIELDS)[number], string | number | null> = {
      title: ota.title, version: ota.version, tag: ota.tag, size: ota.dataSize, checksum: ota.checksum,
      checksum_algorithm: ota.checksumAlgorithm, url: ota.url,
    };
    return FIELDS.filter((f) => values[f] !== null && values[f] !== '').map((f) => ({
      key: prefix + f, ts, type: typeof values[f] === 'number' ? 'LONG' : 'STRING', value: values[f]!, // nulls filtered above
    }));
  }

  return {
    effective(device, type, profile = store.profileById(device.profileId)) {
      return device[OTA_FIELD[type]] ?? profile?.[OTA_FIELD[type]] ?? null;
    },
    async apply(deviceId, type, before, after) {
      if (before === after) return;
      const entries = entriesOf(type, after);
      await attributes.save(deviceId, 'SHARED_SCOPE', entries);
      const kept = new Set(entries.map((e) => e.key));
      const stale = FIELDS.map((f) => PREFIX[type] + f).filter((key) => !kept.has(key));
      await attributes.remove(deviceId, 'SHARED_SCOPE', stale);
    },
  };
}
