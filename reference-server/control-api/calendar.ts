// Calendar buckets of time-series aggregation (intervalType WEEK, WEEK_ISO, MONTH, QUARTER), as
// ThingsBoard makes them: the time zone read as Java's ZoneId.of reads it (with ThingsBoard's
// aliases; an unknown zone falls back to the server's own), and each bucket ending where
// TimeUtils.calculateIntervalEnd ends it: the start's local day, moved to the start of its week
// (Sunday for WEEK, Monday for WEEK_ISO), month or quarter, plus one week, month or quarter.
// Local times are resolved as java.time resolves them: in a gap, later by the gap's length; in an
// overlap, the offset held before.

export type CalendarInterval = 'WEEK' | 'WEEK_ISO' | 'MONTH' | 'QUARTER';

/** A fixed offset, or a region whose offsets Intl knows. */
export type Zone = { offsetMs: number } | { format: Intl.DateTimeFormat };

const DAY = 86_400_000;
/** The latest instant a bucket may start at: its end (up to a quarter later) stays a valid Date. */
export const MAX_CALENDAR_TS = 8.64e15 - 100 * DAY;

/** AggregationParams.TZ_LINKS: the aliases ThingsBoard passes to ZoneId.of. */
const TZ_LINKS: Record<string, string> = {
  EST: 'America/New_York', 'GMT+0': 'GMT', 'GMT-0': 'GMT', HST: 'US/Hawaii', MST: 'America/Phoenix', ROC: 'Asia/Taipei',
};
const OFFSET = /^([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$/;
const REGION = /^[A-Za-z][A-Za-z0-9~/._+-]+$/;

const regions = new Map<string, Intl.DateTimeFormat>();

function region(name: string): Zone | undefined {
  if (!REGION.test(name)) return undefined;
  let format = regions.get(name);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      return undefined;
    }
    regions.set(name, format);
  }
  return { format };
}

/** ZoneOffset.of: +h, +hh, +hh:mm, +hhmm, +hh:mm:ss, +hhmmss, within ±18:00. */
function offset(text: string): Zone | undefined {
  const m = OFFSET.exec(text);
  if (!m || (m[2].length === 1 && (m[3] !== undefined || m[4] !== undefined))) return undefined;
  const [h, min, s] = [Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)];
  if (h > 18 || min > 59 || s > 59 || (h === 18 && (min > 0 || s > 0))) return undefined;
  return { offsetMs: (m[1] === '-' ? -1 : 1) * ((h * 60 + min) * 60 + s) * 1000 };
}

/** ZoneId.of(id, TZ_LINKS), or undefined where Java throws. */
function javaZone(id: string): Zone | undefined {
  const name = TZ_LINKS[id] ?? id;
  if (name.length <= 1 || name.startsWith('+') || name.startsWith('-')) return name === 'Z' ? { offsetMs: 0 } : offset(name);
  const prefix = name.startsWith('UTC') || name.startsWith('GMT') ? 3 : name.startsWith('UT') ? 2 : 0;
  if (prefix > 0) {
    if (name.length === prefix) return { offsetMs: 0 };
    if (name[prefix] === '+' || name[prefix] === '-') return offset(name.slice(prefix));
  }
  return region(name);
}

/** The zone of `timeZone`; empty, absent or unknown is the server's own (ThingsBoard: ZoneId.systemDefault()). */
export function zoneOf(timeZone: string | undefined): Zone {
  const zone = timeZone ? javaZone(timeZone) : undefined;
  return zone ?? region(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? { offsetMs: 0 };
}

/** The zone's offset at an instant, in ms (seconds-exact: Intl prints seconds). */
export function offsetAt(zone: Zone, instant: number): number {
  if ('offsetMs' in zone) return zone.offsetMs;
  const fields: Record<string, number> = {};
  for (const part of zone.format.formatToParts(instant)) if (part.type !== 'literal') fields[part.type] = Number(part.value);
  const local = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
  return local - Math.floor(instant / 1000) * 1000;
}

/** A ZonedDateTime: the local date-time (as if it were UTC) and the offset it holds. */
interface Zoned {
  local: number;
  offset: number;
}

/** ZonedDateTime.ofLocal(local, zone, preferred). */
function resolve(zone: Zone, local: number, preferred: number): Zoned {
  const before = offsetAt(zone, local - DAY);
  const after = offsetAt(zone, local + DAY);
  const valid = [...new Set([before, after])].filter((o) => offsetAt(zone, local - o) === o);
  if (valid.length === 1) return { local, offset: valid[0] };
  if (valid.length === 0) return { local: local + (after - before), offset: after }; // a gap
  return { local, offset: valid.includes(preferred) ? preferred : before }; // an overlap
}

/** Replace the local date, keeping the local time of day. */
function withDate(zone: Zone, z: Zoned, year: number, month: number, day: number): Zoned {
  const time = z.local - Math.floor(z.local / DAY) * DAY;
  return resolve(zone, Date.UTC(year, month, day) + time, z.offset);
}

/** TimeUtils.calculateIntervalEnd. */
export function calendarIntervalEnd(startTs: number, type: CalendarInterval, zone: Zone): number {
  const startOffset = offsetAt(zone, startTs);
  const day = resolve(zone, Math.floor((startTs + startOffset) / DAY) * DAY, startOffset);
  const date = new Date(day.local);
  const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  let end: Zoned;
  switch (type) {
    case 'WEEK':
    case 'WEEK_ISO': {
      const back = type === 'WEEK' ? date.getUTCDay() : (date.getUTCDay() + 6) % 7;
      const first = withDate(zone, day, y, m, d - back);
      const next = new Date(first.local);
      end = withDate(zone, first, next.getUTCFullYear(), next.getUTCMonth(), next.getUTCDate() + 7);
      break;
    }
    case 'MONTH':
      end = withDate(zone, withDate(zone, day, y, m, 1), y, m + 1, 1);
      break;
    case 'QUARTER': {
      const first = m - (m % 3);
      end = withDate(zone, withDate(zone, day, y, first, 1), y, first + 3, 1);
      break;
    }
  }
  return end.local - end.offset;
}
