// What the simulator counts as its requests (its summary's simulator.requests, and dhi bench
// --simulator's count over a window): every request it sent that ended, and every poll's end.
import { describe, expect, it } from 'vitest';
import { requestsEnded } from '../requests-ended.js';

describe('the requests the simulator counts', () => {
  it('counts the sent requests that ended, not those dropped before they left, and every poll answer and poll failure', () => {
    const warmup = {
      // 10 answered, 3 failed on the wire or by status; 3 dropped in the backlog never left.
      telemetry: { ok: 10, errors: { 'status 503': 2, timeout: 1, dropped: 3 } },
      // A poll's answers are counted by the counters; only its failures here.
      attributePush: { ok: 5, errors: { reset: 1 } },
      rpcDelivery: { ok: 4, errors: {} },
    } as const;
    const steady = { rpc: { ok: 2, errors: { mismatch: 1 } }, attributeWrite: { ok: 7, errors: { unfinished: 2 } } } as const;
    // Poll answers 6 + 3 and 2 polls that timed out empty; devices online and points are not requests.
    const counters = { attributePolls: 6, rpcPolls: 3, pollTimeouts: 2, devicesOnline: 100, telemetryPoints: 50 };
    expect(requestsEnded([warmup], {})).toBe(13 + 1);
    expect(requestsEnded([warmup, steady], counters)).toBe(13 + 1 + 3 + 9 + 11);
    expect(requestsEnded([], {})).toBe(0);
  });
});
