// Tells a target that cannot be reached (refused, unknown host, timed out, TLS refused) from any
// other failure, through the causes that undici and fetch wrap around the socket's error.
const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_HAS_EXPIRED',
]);

/** The socket-level reason (e.g. `connect ECONNREFUSED 127.0.0.1:9`) when `error` is one, else undefined. */
export function unreachableReason(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code && NETWORK_CODES.has(code)) {
      // Node's happy-eyeballs connect throws an AggregateError with an empty message.
      const inner = current instanceof AggregateError ? current.errors.map((e: Error) => e.message).join('; ') : '';
      return current.message || inner || code;
    }
    current = current.cause;
  }
  return undefined;
}
