import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../spec/load.js';
import type { Case } from '../case.js';
import type { Exchange } from '../client.js';
import { RequestFailed, type HttpTarget, type Reply, type RequestSpec } from '../client.js';
import { createContractChecker, type ContractChecker } from '../contract-check.js';
import { ControlError } from '../control/index.js';
import { statusIs } from '../checks.js';
import { runCase, runCases, type RunnerOptions } from '../runner.js';

/** A target that answers every request with `answer(spec)` and records the exchange. */
function fakeTarget(answer: (spec: RequestSpec) => Reply | Error): HttpTarget {
  return {
    baseUrl: 'http://fake',
    async send(spec, channel, record) {
      const result = answer(spec);
      const exchange: Exchange = { channel, startedAt: Date.now(), durationMs: 0, request: { method: spec.method, url: spec.path, headers: {} }, curl: `curl ${spec.path}` };
      record(exchange);
      if (result instanceof Error) throw result;
      return result;
    },
    close: async () => undefined,
  };
}

const empty = (status: number): Reply => ({ status, headers: {}, mediaType: '', bytes: Buffer.alloc(0), text: '', json: undefined });

let checker: ContractChecker;
let options: RunnerOptions;
beforeAll(async () => {
  checker = createContractChecker(await loadContract());
  options = {
    device: fakeTarget((spec) => (spec.path.includes('broken') ? new RequestFailed('socket hang up', false) : empty(spec.path.includes('bad') ? 401 : 200))),
    control: { http: fakeTarget(() => empty(500)), unavailable: 'login answered 401' },
    checker,
    concurrency: 2,
    caseTimeoutMs: 200,
    clientRpcTimeoutMs: 30_000,
    runId: 'test',
  };
});

const base = { title: 't', requirement: 'r', severity: 'MUST' as const };

describe('the runner', () => {
  it('passes a case whose checks hold, validating each device response against the contract', async () => {
    const c: Case = { ...base, id: '1.1.1', async run(t) { t.expect(statusIs(200)(await t.device({ method: 'POST', path: '/api/v1/x/telemetry', operationId: 'postTelemetry' }))); } };
    const record = await runCase(c, options);
    expect(record).toMatchObject({ outcome: 'pass', failures: [] });
    expect(record.transcript).toHaveLength(1);
  });

  it('fails a case with the failures, each with its severity, and keeps the transcript', async () => {
    const c: Case = { ...base, id: '1.3.1', async run(t) { t.expect(statusIs(200)(await t.device({ method: 'POST', path: '/api/v1/bad/telemetry', operationId: 'postTelemetry' }))); } };
    const record = await runCase(c, options);
    expect(record.outcome).toBe('fail');
    expect(record.failedSeverity).toBe('MUST');
    // statusIs, plus the contract check: 401 with an empty body is a SHOULD-level difference.
    expect(record.failures.map((f) => `${f.check} ${f.severity}`).sort()).toEqual(['bodyMatchesSchema SHOULD', 'statusIs MUST']);
  });

  it('turns a request that got no answer into a failure of the case', async () => {
    const c: Case = { ...base, id: '1.1.2', async run(t) { await t.device({ method: 'GET', path: '/broken' }); } };
    expect(await runCase(c, options)).toMatchObject({ outcome: 'fail', failures: [{ check: 'answered', severity: 'MUST' }] });
  });

  it('skips cases that need the control API when it is unavailable, with the reason', async () => {
    const c: Case = { ...base, id: '1.1.3', devices: 1, run: async () => undefined };
    expect(await runCase(c, options)).toMatchObject({ outcome: 'skipped', reason: 'needs the control API: login answered 401' });
  });

  it('ends a case that overruns its budget, and a harness failure, as errors', async () => {
    const slow: Case = { ...base, id: '1.1.4', run: (t) => t.wait(1000) };
    expect(await runCase(slow, options)).toMatchObject({ outcome: 'error', reason: 'harness: the case did not finish within 200 ms' });
    const control: Case = { ...base, id: '1.1.5', run: async () => { throw new ControlError('control API saveDevice: 500'); } };
    expect(await runCase(control, options)).toMatchObject({ outcome: 'error', reason: 'control API saveDevice: 500' });
  });

  it('runs cleanups in reverse order even when the case fails, and notes a failed cleanup', async () => {
    const order: string[] = [];
    const c: Case = {
      ...base,
      id: '1.1.6',
      async run(t) {
        t.cleanup(async () => order.push('first registered'));
        t.cleanup(async () => { order.push('second registered'); throw new Error('gone'); });
        t.skip('nothing to do here');
      },
    };
    const record = await runCase(c, options);
    expect(order).toEqual(['second registered', 'first registered']);
    expect(record).toMatchObject({ outcome: 'skipped', reason: 'nothing to do here', notes: ['cleanup: gone'] });
  });

  it('keeps the catalogue order whatever order the cases finish in', async () => {
    const cases: Case[] = [300, 10, 100].map((ms, i) => ({ ...base, id: `1.1.${i + 1}`, run: (t) => t.wait(ms / 10) }));
    const finished: string[] = [];
    const records = await runCases(cases, { ...options, concurrency: 3, onRecord: (r) => finished.push(r.id) });
    expect(records.map((r) => r.id)).toEqual(['1.1.1', '1.1.2', '1.1.3']);
    expect(finished).toEqual(['1.1.2', '1.1.3', '1.1.1']);
  });
});
