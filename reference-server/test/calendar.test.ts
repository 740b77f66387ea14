// Calendar buckets as java.time makes them (TimeUtils.calculateIntervalEnd, ZoneId.of).
import { describe, expect, it } from 'vitest';
import { calendarIntervalEnd, offsetAt, zoneOf } from '../control-api/calendar.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('time zones read as ZoneId.of reads them', () => {
  it('takes offsets, UTC/GMT/UT prefixes, Z, regions and ThingsBoard\'s aliases', () => {
    const july = Date.UTC(2024, 6, 1);
    expect(offsetAt(zoneOf('+05:30'), july)).toBe(19_800_000);
    expect(offsetAt(zoneOf('-0330'), july)).toBe(-12_600_000);
    expect(offsetAt(zoneOf('+5'), july)).toBe(18_000_000);
    expect(offsetAt(zoneOf('UTC+2'), july)).toBe(7_200_000);
    expect(offsetAt(zoneOf('GMT-03:00'), july)).toBe(-10_800_000);
    expect(offsetAt(zoneOf('Z'), july)).toBe(0);
    expect(offsetAt(zoneOf('Europe/Kyiv'), july)).toBe(10_800_000);
    // EST is America/New_York for ThingsBoard (daylight time in July), MST America/Phoenix (none).
    expect(offsetAt(zoneOf('EST'), july)).toBe(-14_400_000);
    expect(offsetAt(zoneOf('MST'), july)).toBe(-25_200_000);
  });

  it('falls back to the server\'s zone where Java throws', () => {
    const server = zoneOf(undefined);
    for (const bad of ['+5:30', '+19:00', 'Mars/Olympus', '', 'UTC+x']) {
      expect(offsetAt(zoneOf(bad), Date.UTC(2024, 0, 1)), bad).toBe(offsetAt(server, Date.UTC(2024, 0, 1)));
    }
  });
});

describe('the end of a calendar bucket', () => {
  it('ends weeks on Sunday (WEEK) or Monday (WEEK_ISO), months and quarters on their first day, at local midnight', () => {
    const utc = zoneOf('UTC');
    const wednesday = Date.UTC(2024, 0, 10, 15, 15, 27);
    expect(iso(calendarIntervalEnd(wednesday, 'WEEK', utc))).toBe('2024-01-14T00:00:00.000Z');
    expect(iso(calendarIntervalEnd(wednesday, 'WEEK_ISO', utc))).toBe('2024-01-15T00:00:00.000Z');
    expect(iso(calendarIntervalEnd(Date.UTC(2024, 0, 31, 23), 'MONTH', utc))).toBe('2024-02-01T00:00:00.000Z');
    expect(iso(calendarIntervalEnd(Date.UTC(2024, 4, 15), 'QUARTER', utc))).toBe('2024-07-01T00:00:00.000Z');
    expect(iso(calendarIntervalEnd(Date.UTC(2024, 11, 31), 'QUARTER', utc))).toBe('2025-01-01T00:00:00.000Z');
    // A Sunday is the first day of its WEEK and the last of its WEEK_ISO.
    const sunday = Date.UTC(2024, 0, 14, 12);
    expect(iso(calendarIntervalEnd(sunday, 'WEEK', utc))).toBe('2024-01-21T00:00:00.000Z');
    expect(iso(calendarIntervalEnd(sunday, 'WEEK_ISO', utc))).toBe('2024-01-15T00:00:00.000Z');
  });

  it('keeps local midnight across a daylight-saving change, and moves a midnight that does not exist on by the gap, as java.time does', () => {
    // Europe/Kyiv goes from +02:00 to +03:00 on 31 March 2024: April starts at 00:00 +03:00.
    expect(iso(calendarIntervalEnd(Date.UTC(2024, 2, 15), 'MONTH', zoneOf('Europe/Kyiv')))).toBe('2024-03-31T21:00:00.000Z');
    // America/Santiago skips 8 September 2024 00:00 (to 01:00 -03:00): the day starts at 01:00, and
    // the month's end keeps that time of day (1 October 01:00 -03:00).
    expect(iso(calendarIntervalEnd(Date.UTC(2024, 8, 8, 15), 'MONTH', zoneOf('America/Santiago')))).toBe('2024-10-01T04:00:00.000Z');
  });
});
