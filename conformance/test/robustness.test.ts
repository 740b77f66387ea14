// `dhi conform --robustness`: passes against the reference server, and each case fails against a
// server with the matching fault (HTTP-level faults through the fault proxy; connection-level
// faults from a reference server with its protection turned off, or from the proxy itself, which
// reads every body to the end and never passes a client's abort on).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../reference-server/server.js';
import { startFaultProxy, type Fault, type ProxyRequest } from './fault-proxy.js';
import { mustFailures, notPassing, runSuite } from './suite-run.js';

const RPC_POLL = /^\/api\/v1\/([^/?]+)\/rpc(\?|$)/;
const DEVICE_POST = /^\/api\/v1\//;

/** The server answers an unanswered device-side RPC after this, and the suite is told so (7.7.1). */
const CLIENT_RPC_TIMEOUT_MS = 1000;
const quiet = { host: '127.0.0.1', port: 0, httpsPort: -1, db: ':memory:', logLevel: 'silent', clientRpcTimeoutMs: CLIENT_RPC_TIMEOUT_MS } as const;
let server: RunningServer;
beforeAll(async () => {
  server = await startServer(quiet);
});
afterAll(async () => {
  await server?.close();
});

const robustness = (target: string, cases = ['*.7.*'], strict = false) => runSuite({ target, robustness: true, cases, strict, clientRpcTimeout: CLIENT_RPC_TIMEOUT_MS });

async function throughProxy(fault: Fault | undefined, cases: string[]) {
  const proxy = await startFaultProxy(server.httpUrl, fault);
  try {
    return await robustness(proxy.url, cases);
  } finally {
    await proxy.close();
  }
}

const hostileAnswered500: Fault = {
  name: 'a hostile body answered 500',
  caught: ['1.7.1', '1.7.2', '1.7.3', '1.7.4'],
  response(req, res) {
    const hostile = req.method === 'POST' && DEVICE_POST.test(req.url) && ((res.status >= 400 && res.status < 500) || /1e[34]00/.test(req.body.toString('latin1')));
    return hostile ? { status: 500, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"status":500}') } : res;
  },
};

/** Refuses a poll while another poll of the same device is open. */
function onePollPerDevice(): Fault {
  const open = new Map<string, number>();
  const tokenOf = (req: ProxyRequest) => (req.method === 'GET' ? RPC_POLL.exec(req.url)?.[1] : undefined);
  return {
    name: 'a second concurrent poll on a device refused 503',
    caught: ['5.7.2'],
    request(req) {
      const token = tokenOf(req);
      if (!token) return req;
      if ((open.get(token) ?? 0) > 0) return { status: 503, headers: {}, body: Buffer.alloc(0) };
      open.set(token, 1);
      return req;
    },
    response(req, res) {
      const token = tokenOf(req);
      if (token) open.delete(token);
      return res;
    },
  };
}

describe('dhi conform --robustness', () => {
  it('passes against dhi serve', async () => {
    const run = await robustness(server.httpUrl);
    expect(run.records.map((r) => r.id)).toEqual(['1.7.1', '1.7.2', '1.7.3', '1.7.4', '1.7.5', '1.7.6', '1.7.7', '5.7.1', '5.7.2', '7.7.1']);
    expect(notPassing(run.records)).toEqual([]);
    expect(run.exitCode).toBe(0);
  }, 90_000);

  for (const fault of [hostileAnswered500, onePollPerDevice()]) {
    it(`fails against: ${fault.name} (${fault.caught.join(', ')})`, async () => {
      const run = await throughProxy(fault, fault.caught);
      expect(run.exitCode).toBe(1);
      expect(mustFailures(run.records).sort()).toEqual([...fault.caught].sort());
    }, 90_000);
  }

  it('fails against a server that reads refused bodies to the end and keeps aborted polls (1.7.5, 5.7.1)', async () => {
    const run = await throughProxy(undefined, ['1.7.5', '5.7.1']);
    expect(mustFailures(run.records).sort()).toEqual(['1.7.5', '5.7.1']);
  }, 90_000);

  it('fails against a server that never times slow clients out (1.7.6, 1.7.7)', async () => {
    const lax = await startServer({ ...quiet, headerTimeoutMs: 600_000, bodyTimeoutMs: 600_000 });
    try {
      const run = await robustness(lax.httpUrl, ['1.7.6', '1.7.7']);
      expect(mustFailures(run.records).sort()).toEqual(['1.7.6', '1.7.7']);
    } finally {
      await lax.close();
    }
  }, 90_000);

  it('fails (--strict) against a server that holds an unanswered device-side RPC past its timeout (7.7.1)', async () => {
    const holding = await startServer({ ...quiet, clientRpcTimeoutMs: 600_000 });
    try {
      const run = await robustness(holding.httpUrl, ['7.7.1'], true);
      expect(run.exitCode).toBe(1);
      expect(mustFailures(run.records, true)).toEqual(['7.7.1']);
    } finally {
      await holding.close();
    }
  }, 90_000);
});
