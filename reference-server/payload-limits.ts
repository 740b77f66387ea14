// Body size limits per path, ThingsBoard's max_payload_size syntax: `*` is one segment, `**` the
// rest (also nothing). The first matching pattern wins. Matched once per route at boot.
import type { PayloadLimit } from './config.js';

function patternToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((segment) => (segment === '**' ? '(?:/.*)?' : segment === '*' ? '/[^/]+' : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
    .slice(1)
    .join('');
  return new RegExp(`^${source}$`);
}

/** The limit for an OpenAPI path template (`{param}` counts as one segment); undefined when none matches. */
export function limitFor(path: string, limits: readonly PayloadLimit[]): number | undefined {
  return limits.find((limit) => patternToRegExp(limit.pattern).test(path))?.bytes;
}
