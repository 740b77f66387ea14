// Payload generators: realistic telemetry per device profile. @faker-js/faker draws each device's
// starting state (seeded by --seed and the device index, so any split over workers gives the
// same data); the per-message walk uses a small seeded PRNG, cheap enough for the hot path.
// Faker comes from its English locale module (English over the base locale, as before): the package
// root loads every locale, ~17 MB of strings kept live in every simulator process (2.7 MB this way).
import { faker } from '@faker-js/faker/locale/en';

export type ProfileSpec = { kind: 'smart-meter' } | { kind: 'tracker' } | { kind: 'plc'; lines: number };

export class ProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileError';
  }
}

const PROFILE_PATTERN = /^(smart-meter|tracker|plc)(?::(\d{1,4}))?$/;
const DEFAULT_PLC_LINES = 8;

/** `smart-meter`, `tracker`, `plc` or `plc:<lines>` (1..1000 numeric lines). */
export function parseProfile(text: string): ProfileSpec {
  const match = PROFILE_PATTERN.exec(text);
  if (!match) throw new ProfileError(`unknown profile "${text}": expected smart-meter, tracker, plc or plc:<lines>`);
  if (match[1] !== 'plc') {
    if (match[2] !== undefined) throw new ProfileError(`profile "${match[1]}" takes no ":<n>" suffix`);
    return { kind: match[1] as 'smart-meter' | 'tracker' };
  }
  const lines = match[2] === undefined ? DEFAULT_PLC_LINES : Number(match[2]);
  if (lines < 1 || lines > 1000) throw new ProfileError(`profile plc:<lines> takes 1..1000 lines, got ${lines}`);
  return { kind: 'plc', lines };
}

export function profileName(spec: ProfileSpec): string {
  return spec.kind === 'plc' ? `plc:${spec.lines}` : spec.kind;
}

/** Keys a profile's messages carry, e.g. to read them back from the server. */
export function profileKeys(spec: ProfileSpec): string[] {
  if (spec.kind === 'smart-meter') return ['pulseCounter', 'leakage', 'batteryLevel'];
  if (spec.kind === 'tracker') return ['latitude', 'longitude', 'speed', 'fuel', 'batteryLevel'];
  return Array.from({ length: spec.lines }, (_, i) => `line${i + 1}`);
}

/** mulberry32: a tiny, fast, seedable PRNG; returns floats in [0, 1). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `value` rounded to the digits of `scale` (100: two decimals). */
const round = (value: number, scale: number): number => Math.round(value * scale) / scale;

/** The fraction of a whole number of hundredths as a number prints it: '', '.01', ... '.1', ... '.99'. */
const FRACTIONS = Array.from({ length: 100 }, (_, i) => (i ? String(i / 100).slice(1) : ''));

/**
 * The text of `hundredths / 100` (a whole number, >= 0), as `${hundredths / 100}` prints it: a
 * decimal of at most 15 significant digits prints as itself (trailing zeros dropped), so the whole
 * part and a table's fraction give it without V8's conversion of a double, a runtime call each.
 */
export function hundredthsText(hundredths: number): string {
  return hundredths < 1e15 ? `${Math.floor(hundredths / 100)}${FRACTIONS[hundredths % 100]}` : `${hundredths / 100}`;
}

/**
 * A device's payload source: each call returns the next message's values as a JSON object's text.
 * Written out here, not by JSON.stringify of an object made per message: a number prints in a
 * template as it does in JSON, and the keys are fixed per profile.
 */
export function createPayloadSource(spec: ProfileSpec, seed: number, deviceIndex: number): () => string {
  faker.seed([seed, deviceIndex]);
  const random = createRandom(faker.number.int({ max: 2 ** 31 }));
  if (spec.kind === 'smart-meter') {
    let pulseCounter = faker.number.int({ min: 1000, max: 900_000 });
    let battery = faker.number.float({ min: 60, max: 100, fractionDigits: 1 });
    return () => {
      pulseCounter += Math.floor(random() * 25);
      battery = Math.max(0, battery - random() * 0.01);
      return `{"pulseCounter":${pulseCounter},"leakage":${random() < 0.002},"batteryLevel":${hundredthsText(Math.round(battery * 100))}}`;
    };
  }
  if (spec.kind === 'tracker') {
    let latitude = faker.location.latitude({ min: -60, max: 60, precision: 6 });
    let longitude = faker.location.longitude({ precision: 6 });
    let fuel = faker.number.float({ min: 20, max: 100, fractionDigits: 1 });
    let battery = faker.number.float({ min: 50, max: 100, fractionDigits: 1 });
    return () => {
      const speed = round(random() * 120, 10);
      latitude = round(latitude + (random() - 0.5) * 0.001, 1e6);
      longitude = round(longitude + (random() - 0.5) * 0.001, 1e6);
      fuel = Math.max(0, fuel - speed * 0.0001);
      battery = Math.max(0, battery - random() * 0.005);
      return `{"latitude":${latitude},"longitude":${longitude},"speed":${speed},"fuel":${hundredthsText(Math.round(fuel * 100))},"batteryLevel":${hundredthsText(Math.round(battery * 100))}}`;
    };
  }
  // Each key with its quote and colon, and the comma before every key but the first.
  const prefixes = profileKeys(spec).map((key, i) => `${i ? ',' : ''}"${key}":`);
  const levels = prefixes.map(() => faker.number.float({ min: 0, max: 1000, fractionDigits: 2 }));
  return () => {
    let text = '{';
    for (let i = 0; i < prefixes.length; i++) {
      const hundredths = Math.round(Math.max(0, levels[i] + (random() - 0.5) * 10) * 100);
      levels[i] = hundredths / 100;
      text += prefixes[i] + hundredthsText(hundredths);
    }
    return text + '}';
  };
}
