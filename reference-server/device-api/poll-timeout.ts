// The `timeout` query parameter of the long polls, a Java long bound as Spring binds it
// (spring-binding.ts): 0 or absent is the default; clamped to the maximum. A negative one ends the
// poll at once (408), as ThingsBoard schedules the poll's end with that delay.
import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config.js';

export function pollTimeout(request: FastifyRequest, config: Readonly<ServerConfig>): number {
  const timeout = (request.query as { timeout?: number }).timeout;
  if (!timeout) return config.defaultPollTimeoutMs;
  return Math.max(0, Math.min(timeout, config.maxPollTimeoutMs));
}
