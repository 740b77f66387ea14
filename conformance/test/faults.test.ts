// The suite proves itself: through a proxy that injects one fault at a time it must fail, naming
// the cases that catch the fault; through the same proxy without a fault it must pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../reference-server/server.js';
import { startFaultProxy, type Fault } from './fault-proxy.js';
import { faults } from './faults.js';
import { mustFailures, notPassing, runSuite } from './suite-run.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, httpsPort: -1, db: ':memory:', logLevel: 'silent' });
});
afterAll(async () => {
  await server?.close();
});

async function throughProxy(fault?: Fault) {
  const proxy = await startFaultProxy(server.httpUrl, fault);
  try {
    return await runSuite({ target: proxy.url, strict: fault?.strict });
  } finally {
    await proxy.close();
  }
}

describe('the fault-injecting proxy', () => {
  it('is transparent without a fault: every MUST and SHOULD case passes', async () => {
    const run = await throughProxy();
    expect(notPassing(run.records)).toEqual([]);
    expect(run.exitCode).toBe(0);
  }, 60_000);

  const all = faults();
  it('injects at least the 15 faults of issue 5', () => {
    expect(all.length).toBeGreaterThanOrEqual(15);
  });

  for (const fault of all) {
    it(`is caught: ${fault.name} (${fault.caught.join(', ')}${fault.strict ? ', --strict' : ''})`, async () => {
      const run = await throughProxy(fault);
      expect(run.exitCode).toBe(1);
      expect(mustFailures(run.records, fault.strict)).toEqual(expect.arrayContaining(fault.caught));
    }, 60_000);
  }
});
