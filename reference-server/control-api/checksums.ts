// OTA package checksums, printed as ThingsBoard's ChecksumUtil prints them: lower-case hex digests
// for MD5/SHA*, Long.toHexString of the CRC32 value (no zero padding), and Guava's HashCode.toString
// for MurmurHash3 (the hash's bytes in little-endian order).
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Schema } from '../../spec/types.js';

export type ChecksumAlgorithm = Schema<'ChecksumAlgorithm'>;
/** The contract's algorithms, at run time (the simulator checks a package's announced one). */
export const CHECKSUM_ALGORITHMS = ['MD5', 'SHA256', 'SHA384', 'SHA512', 'CRC32', 'MURMUR3_32', 'MURMUR3_128'] as const satisfies readonly ChecksumAlgorithm[];

const DIGESTS: Partial<Record<ChecksumAlgorithm, string>> = { MD5: 'md5', SHA256: 'sha256', SHA384: 'sha384', SHA512: 'sha512' };

export function checksum(algorithm: ChecksumAlgorithm, data: Buffer): string {
  const digest = DIGESTS[algorithm];
  if (digest) return createHash(digest).update(data).digest('hex');
  if (algorithm === 'CRC32') return crc32(data).toString(16);
  if (algorithm === 'MURMUR3_32') {
    const out = Buffer.alloc(4);
    out.writeUInt32LE(murmur3x86_32(data));
    return out.toString('hex');
  }
  return murmur3x64_128(data).toString('hex');
}

const rotl32 = (x: number, r: number) => (x << r) | (x >>> (32 - r));

function mix32(k: number): number {
  return Math.imul(rotl32(Math.imul(k, 0xcc9e2d51), 15), 0x1b873593);
}

/** MurmurHash3_x86_32, seed 0 (Guava Hashing.murmur3_32). */
export function murmur3x86_32(data: Buffer): number {
  let h = 0;
  const blocks = data.length & ~3;
  for (let i = 0; i < blocks; i += 4) {
    h ^= mix32(data.readInt32LE(i));
    h = (Math.imul(rotl32(h, 13), 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  for (let i = data.length - 1; i >= blocks; i--) k = (k << 8) | data[i];
  if (data.length > blocks) h ^= mix32(k);
  h ^= data.length;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const M64 = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;
const rotl64 = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & M64;
const mul = (a: bigint, b: bigint) => (a * b) & M64;

function fmix64(k: bigint): bigint {
  k = mul(k ^ (k >> 33n), 0xff51afd7ed558ccdn);
  k = mul(k ^ (k >> 33n), 0xc4ceb9fe1a85ec53n);
  return k ^ (k >> 33n);
}

/** MurmurHash3_x64_128, seed 0 (Guava Hashing.murmur3_128): h1 then h2, each little-endian. */
export function murmur3x64_128(data: Buffer): Buffer {
  let h1 = 0n;
  let h2 = 0n;
  const blocks = data.length & ~15;
  for (let i = 0; i < blocks; i += 16) {
    h1 ^= mul(rotl64(mul(data.readBigUInt64LE(i), C1), 31n), C2);
    h1 = (mul((rotl64(h1, 27n) + h2) & M64, 5n) + 0x52dce729n) & M64;
    h2 ^= mul(rotl64(mul(data.readBigUInt64LE(i + 8), C2), 33n), C1);
    h2 = (mul((rotl64(h2, 31n) + h1) & M64, 5n) + 0x38495ab5n) & M64;
  }
  let k1 = 0n;
  let k2 = 0n;
  for (let i = data.length - 1; i >= blocks; i--) {
    if (i - blocks >= 8) k2 = (k2 << 8n) | BigInt(data[i]);
    else k1 = (k1 << 8n) | BigInt(data[i]);
  }
  if (data.length - blocks > 8) h2 ^= mul(rotl64(mul(k2, C2), 33n), C1);
  if (data.length > blocks) h1 ^= mul(rotl64(mul(k1, C1), 31n), C2);
  const length = BigInt(data.length);
  h1 ^= length;
  h2 ^= length;
  h1 = (h1 + h2) & M64;
  h2 = (h2 + h1) & M64;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 = (h1 + h2) & M64;
  h2 = (h2 + h1) & M64;
  const out = Buffer.alloc(16);
  out.writeBigUInt64LE(h1, 0);
  out.writeBigUInt64LE(h2, 8);
  return out;
}
