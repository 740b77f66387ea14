import { describe, expect, it } from 'vitest';
import { createPayloadSource, hundredthsText, parseProfile, profileKeys, ProfileError, type ProfileSpec } from '../profiles.js';

describe('payload profiles', () => {
  it('parses the profile names and refuses others', () => {
    expect(parseProfile('smart-meter')).toEqual({ kind: 'smart-meter' });
    expect(parseProfile('plc')).toEqual({ kind: 'plc', lines: 8 });
    expect(parseProfile('plc:32')).toEqual({ kind: 'plc', lines: 32 });
    expect(() => parseProfile('tracker:3')).toThrow(ProfileError);
    expect(() => parseProfile('plc:0')).toThrow(/1\.\.1000/);
    expect(() => parseProfile('fridge')).toThrow(/unknown profile "fridge"/);
  });

  it('generates the keys of each profile', () => {
    const values = (spec: ProfileSpec) => JSON.parse(createPayloadSource(spec, 1, 0)()) as Record<string, unknown>;
    expect(Object.keys(values({ kind: 'smart-meter' }))).toEqual(['pulseCounter', 'leakage', 'batteryLevel']);
    expect(Object.keys(values({ kind: 'tracker' }))).toEqual(profileKeys({ kind: 'tracker' }));
    expect(Object.keys(values({ kind: 'plc', lines: 3 }))).toEqual(['line1', 'line2', 'line3']);
    expect(typeof values({ kind: 'smart-meter' }).leakage).toBe('boolean');
    for (const value of Object.values(values({ kind: 'tracker' }))) expect(typeof value).toBe('number');
  });

  it('gives the same data for the same seed and device, and different data otherwise', () => {
    const run = (seed: number, index: number) => {
      const next = createPayloadSource({ kind: 'tracker' }, seed, index);
      return [next(), next(), next()];
    };
    expect(run(7, 3)).toEqual(run(7, 3));
    expect(run(7, 3)).not.toEqual(run(8, 3));
    expect(run(7, 3)).not.toEqual(run(7, 4));
  });

  it('prints a number of hundredths exactly as the number itself prints', () => {
    const wrong: number[] = [];
    for (let n = 0; n < 300_000; n++) if (hundredthsText(n) !== String(n / 100)) wrong.push(n);
    for (const n of [99_999_999_999_999, 123_456_789_012_345, 999_999_999_999_999, 1e15, 1e15 + 1, 2 ** 53 - 1]) if (hundredthsText(n) !== String(n / 100)) wrong.push(n);
    expect(wrong).toEqual([]);
  });

  it('keeps a smart meter counter monotonic', () => {
    const next = createPayloadSource({ kind: 'smart-meter' }, 1, 9);
    let last = -1;
    for (let i = 0; i < 50; i++) {
      const { pulseCounter } = JSON.parse(next()) as { pulseCounter: number };
      expect(pulseCounter).toBeGreaterThanOrEqual(last);
      last = pulseCounter;
    }
  });
});
