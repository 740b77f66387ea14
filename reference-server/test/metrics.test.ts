// dhi serve --metrics: a real `dhi serve` process, real devices over HTTP, and a Prometheus scrape
// of GET /metrics while a long poll is held: request counts and latencies by route, the open poll,
// group-commit batch sizes on a file database, and no token in any label.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../server.js';
import { sample } from '../../test/prometheus-text.js';
import { spawnServe, type ServeChild } from '../bench/serve-process.js';
import { tempDir } from './helpers.js';

const TELEMETRY_ROUTE = '/api/v1/:accessToken/telemetry';


let serve: ServeChild;
let url: string;

beforeAll(async () => {
  serve = spawnServe(['--port', '0', '--https-port', '-1', '--db', join(tempDir(), 'dhi.db'), '--metrics']);
  [, url] = await serve.printed(/metrics {4}(http:\/\/127\.0\.0\.1:\d+)\/metrics/);
}, 30_000);

afterAll(async () => {
  if (serve?.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
});

async function json(path: string, init: RequestInit & { jwt?: string } = {}): Promise<Record<string, unknown>> {
  const headers = { 'content-type': 'application/json', ...(init.jwt && { 'x-authorization': `Bearer ${init.jwt}` }) };
  const res = await fetch(`${url}${path}`, { ...init, headers });
  expect(res.status, `${init.method ?? 'GET'} ${path}`).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe('dhi serve --metrics', () => {
  it('counts requests by route and status with their latency (unmatched paths apart), the open polls and the group commit batches, in the Prometheus text format', async () => {
    const { token: jwt } = (await json('/api/auth/login', { method: 'POST', body: JSON.stringify({ username: 'tenant@thingsboard.org', password: 'tenant' }) })) as { token: string };
    const token = 'METRICS0000000000001';
    const { id } = (await json(`/api/device?accessToken=${token}`, { method: 'POST', jwt, body: JSON.stringify({ name: 'metrics-device', type: 'default' }) })) as { id: { id: string } };
    const sent = 25;
    const answers = await Promise.all(Array.from({ length: sent }, (_, i) => fetch(`${url}/api/v1/${token}/telemetry`, { method: 'POST', body: JSON.stringify({ temperature: i }) })));
    expect(answers.map((a) => a.status)).toEqual(Array(sent).fill(200));
    expect((await fetch(`${url}/api/v1/no-such-token/telemetry`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await fetch(`${url}/no/such/path`)).status).toBe(404);
    const poll = fetch(`${url}/api/v1/${token}/attributes/updates?timeout=20000`);
    // The poll is open once the server has it: ask until the gauge says so (no sleep-and-hope).
    let text = '';
    for (let i = 0; i < 100 && sample(text, 'dhi_open_polls', 'kind="attributes"') !== 1; i++) {
      const scrape = await fetch(`${url}/metrics`);
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      text = await scrape.text();
    }
    expect(sample(text, 'dhi_open_polls', 'kind="attributes"')).toBe(1);
    expect(sample(text, 'dhi_open_polls', 'kind="rpc"')).toBe(0);
    expect(sample(text, 'dhi_open_rpcs', 'state="queued"')).toBe(0);
    expect(sample(text, 'dhi_open_rpcs', 'state="awaiting"')).toBe(0);
    expect(sample(text, 'dhi_http_request_duration_seconds_count', `method="POST",route="${TELEMETRY_ROUTE}",status="200"`)).toBe(sent);
    expect(sample(text, 'dhi_http_request_duration_seconds_count', `method="POST",route="${TELEMETRY_ROUTE}",status="401"`)).toBe(1);
    expect(sample(text, 'dhi_http_request_duration_seconds_bucket', `le="+Inf",method="POST",route="${TELEMETRY_ROUTE}",status="200"`)).toBe(sent);
    expect(sample(text, 'dhi_http_request_duration_seconds_count', 'method="GET",route="(no route)",status="404"')).toBe(1);
    // Every telemetry write went through a group commit; batches hold one write or more.
    const writes = sample(text, 'dhi_store_commit_batch_writes_sum')!;
    const batches = sample(text, 'dhi_store_commit_batch_writes_count')!;
    expect(writes).toBeGreaterThanOrEqual(sent);
    expect(batches).toBeGreaterThanOrEqual(1);
    expect(batches).toBeLessThanOrEqual(writes);
    expect(text).toMatch(/^# TYPE process_cpu_seconds_total counter$/m);
    expect(text).not.toContain(token);
    expect(text).not.toContain('/metrics');

    const shared = await fetch(`${url}/api/plugins/telemetry/DEVICE/${id.id}/attributes/SHARED_SCOPE`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-authorization': `Bearer ${jwt}` }, body: JSON.stringify({ mode: 'eco' }) });
    expect(shared.status).toBe(200);
    expect((await poll).status).toBe(200);
    const after = await (await fetch(`${url}/metrics`)).text();
    expect(sample(after, 'dhi_open_polls', 'kind="attributes"')).toBe(0);
    expect(sample(after, 'dhi_http_request_duration_seconds_count', 'method="GET",route="/api/v1/:accessToken/attributes/updates",status="200"')).toBe(1);
  });

  it('is off unless asked for: GET /metrics is then an unknown path', async () => {
    const server = await startServer({ host: '127.0.0.1', port: 0, httpsPort: -1, db: ':memory:', logLevel: 'silent' });
    try {
      expect((await fetch(`${server.httpUrl}/metrics`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
