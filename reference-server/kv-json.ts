// Typed entries -> JSON text, the one way every read path prints values (device attributes,
// attribute pushes, the control API's attribute and timeseries reads). Values print from their
// type, as ThingsBoard's Gson and Jackson do: a DOUBLE as Java's Double.toString (42.0, 1.0E7),
// a LONG with every digit, a JSON value as its stored text. Keys are escaped, never used as
// object properties, so `__proto__` is a key like any other.
import type { KvEntry } from './store/types.js';

/** Java's Double.toString: 42.0, 1.5, 1.0E7, 1.0E-4. */
export function javaDouble(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
  const abs = Math.abs(n);
  if (abs === 0 || (abs >= 1e-3 && abs < 1e7)) return Number.isInteger(n) ? `${n}.0` : String(n);
  const [mantissa, exponent] = n.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/** The value as JSON text. */
export function valueJson(e: KvEntry): string {
  switch (e.type) {
    case 'DOUBLE': {
      // An aggregate can overflow to Infinity: Jackson writes NaN and the infinities as strings.
      const text = javaDouble(e.value as number);
      return Number.isFinite(e.value) ? text : `"${text}"`;
    }
    case 'STRING':
      return JSON.stringify(e.value);
    case 'JSON':
      return e.value as string;
    default:
      return String(e.value);
  }
}

/** The value as Java's toString prints it (ThingsBoard's non-strict timeseries values). */
export function valueString(e: KvEntry): string {
  return e.type === 'DOUBLE' ? javaDouble(e.value as number) : String(e.value);
}

/** `{"key":value,...}`: device attribute reads and pushes. */
export function entriesJson(entries: readonly KvEntry[]): string {
  let out = '{';
  for (let i = 0; i < entries.length; i++) {
    if (i > 0) out += ',';
    out += `${JSON.stringify(entries[i].key)}:${valueJson(entries[i])}`;
  }
  return `${out}}`;
}

/** `[{"key":..,"value":..,"lastUpdateTs":..}]`: TelemetryController's attribute reads. */
export function attributeListJson(entries: readonly KvEntry[]): string {
  return `[${entries.map((e) => `{"key":${JSON.stringify(e.key)},"value":${valueJson(e)},"lastUpdateTs":${e.ts}}`).join(',')}]`;
}

/** A key asked for that has no latest value: ThingsBoard answers it with a null value. */
export interface NoValue {
  key: string;
  ts: number;
  type: null;
  value: null;
}
export type TsPoint = KvEntry | NoValue;

/** `{"key":[{"ts":..,"value":..}]}` in entry order: timeseries reads; values as strings unless strict. */
export function timeseriesJson(entries: readonly TsPoint[], strict: boolean): string {
  const byKey = new Map<string, string[]>();
  for (const e of entries) {
    const value = e.type === null ? 'null' : strict ? valueJson(e) : JSON.stringify(valueString(e));
    const point = `{"ts":${e.ts},"value":${value}}`;
    const points = byKey.get(e.key);
    if (points) points.push(point);
    else byKey.set(e.key, [point]);
  }
  return `{${[...byKey].map(([key, points]) => `${JSON.stringify(key)}:[${points.join(',')}]`).join(',')}}`;
}
