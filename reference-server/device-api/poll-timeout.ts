// The `timeout` query parameter of the long polls: 0 or absent is the default; clamped to the maximum.
import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config.js';

export function pollTimeout(request: FastifyRequest, config: Readonly<ServerConfig>): number {
  const timeout = (request.query as { timeout?: number }).timeout;
  if (!timeout) return config.defaultPollTimeoutMs;
  return Math.min(timeout, config.maxPollTimeoutMs);
}
