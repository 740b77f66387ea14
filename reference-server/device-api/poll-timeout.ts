// The `timeout` query parameter of the long polls, a Java long bound as Spring binds it
// (spring-binding.ts): 0 or absent is the default; clamped to the maximum. A negative one ends the
// poll at once (408), as ThingsBoard schedules the poll's end with that delay.
import type { ServerConfig } from '../config.js';

export function pollTimeout(timeout: number | undefined, config: Readonly<ServerConfig>): number {
  if (!timeout) return config.defaultPollTimeoutMs;
  return Math.max(0, Math.min(timeout, config.maxPollTimeoutMs));
}
