// What the simulator's HTTP clients share: TLS options for undici (the control API, provisioning),
// the classification of a failed request by its error code, and loopback detection for source
// addresses. The devices' own client is wire.ts.
import type { ErrorClass } from './metrics.js';

/** undici options for a TLS peer whose certificate is not to be checked. */
export function tlsOptions(insecure: boolean): { connect?: { rejectUnauthorized: false } } {
  return insecure ? { connect: { rejectUnauthorized: false } } : {};
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const CONNECT_CODES = new Set(['ECONNREFUSED', 'EADDRNOTAVAIL', 'EADDRINUSE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EMFILE']);

/** Classify a failed request by its error code (never by message). */
export function classifyError(error: unknown): ErrorClass {
  let current = error as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 3; depth++) {
    const code = current.code;
    if (code && TIMEOUT_CODES.has(code)) return 'timeout';
    if (code && RESET_CODES.has(code)) return 'reset';
    if (code && CONNECT_CODES.has(code)) return 'connect';
    current = current.cause as typeof current;
  }
  return 'other';
}

const IPV4_LOOPBACK = /^127\.\d+\.\d+\.\d+$/;

/** Whether a URL names an IPv4 loopback address (where 127.0.0.x source addresses work). */
export function isIpv4Loopback(url: string): boolean {
  return IPV4_LOOPBACK.test(new URL(url).hostname);
}
