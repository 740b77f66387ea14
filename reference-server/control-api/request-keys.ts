// TelemetryController.getKeys: the keys of a telemetry or attribute request. Repeated `key`
// parameters win over `keys`, which is split at commas as Java's String.split splits it: each key
// kept as sent, trailing empty ones dropped.
export function requestKeys(query: { keys?: string; key?: string[] }): string[] {
  if (query.key !== undefined) return query.key;
  if (!query.keys) return [];
  const keys = query.keys.split(',');
  while (keys.length > 0 && keys[keys.length - 1] === '') keys.pop();
  return keys;
}
