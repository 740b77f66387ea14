// `npm run bench:rpc`: the server's CPU per server-side RPC round trip (the device's poll, the REST
// two-way call, the device's reply: three requests), read from /proc/<pid>/stat of `dhi serve` in a
// child process, over a fleet of devices each doing its round trips one after the other. Run it in
// two checkouts to compare them (under /work/coord/exclusive-run or on an idle machine).
//
//   npm run bench:rpc -- --round-trips 6000 --devices 20 [--persistent]
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { Agent, request } from 'undici';
import { integer } from '../../cli/option-parsers.js';
import { startServe, tenantLogin } from './serve-process.js';

interface Options {
  roundTrips: number;
  devices: number;
  persistent?: boolean;
}

/** Linux reports CPU time in clock ticks of 10 ms (USER_HZ 100). */
const TICK_MS = 10;
const WARMUP_ROUND_TRIPS = 500;

/** User plus system CPU of the process, ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function bench({ roundTrips, devices, persistent = false }: Options): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dhi-bench-rpc-'));
  const serve = await startServe(join(dir, 'rpc.db'), false);
  const agent = new Agent({ connections: 2 * devices + 4, keepAliveTimeout: 60_000 });
  const call = async (method: 'GET' | 'POST', path: string, body?: object, jwt?: string) => {
    const res = await request(`${serve.http}${path}`, {
      method, dispatcher: agent, body: body && JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...(jwt && { 'x-authorization': `Bearer ${jwt}` }) },
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  try {
    const jwt = await tenantLogin(serve.http, agent);
    const fleet: { id: string; token: string }[] = [];
    for (let i = 0; i < devices; i++) {
      const { id } = (await call('POST', '/api/device', { name: `bench-rpc-${i}`, type: 'default' }, jwt)).id;
      fleet.push({ id, token: (await call('GET', `/api/device/${id}/credentials`, undefined, jwt)).credentialsId });
    }
    const roundTrip = async (device: { id: string; token: string }) => {
      const poll = call('GET', `/api/v1/${device.token}/rpc?timeout=20000`);
      const rest = call('POST', `/api/plugins/rpc/twoway/${device.id}`, { method: 'bench', params: { on: true }, persistent, timeout: 20_000 }, jwt);
      const { id } = await poll;
      await call('POST', `/api/v1/${device.token}/rpc/${id}`, { ok: id });
      await rest;
    };
    const run = (each: number) => Promise.all(fleet.map(async (device) => {
      for (let i = 0; i < each; i++) await roundTrip(device);
    }));
    await run(Math.ceil(WARMUP_ROUND_TRIPS / devices));
    const each = Math.ceil(roundTrips / devices);
    const [cpu0, t0] = [cpuMs(serve.child.pid!), performance.now()];
    await run(each);
    const [cpu1, t1] = [cpuMs(serve.child.pid!), performance.now()];
    const n = each * devices;
    console.log(JSON.stringify({
      roundTrips: n, devices, persistent,
      serverCpuUsPerRoundTrip: Math.round(((cpu1 - cpu0) * 1000) / n),
      roundTripsPerSecond: Math.round(n / ((t1 - t0) / 1000)),
    }));
  } finally {
    await agent.close();
    serve.child.kill('SIGTERM');
    await serve.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

await new Command('bench:rpc')
  .description('server CPU per server-side RPC round trip (poll, two-way call, reply) of dhi serve')
  .option('--round-trips <n>', 'round trips measured (after 500 of warm-up)', integer(1), 6000)
  .option('--devices <n>', 'devices doing round trips at once, each one after the other', integer(1, 1000), 20)
  .option('--persistent', 'persistent commands (stored, with their statuses)')
  .action((options: Options) => bench(options))
  .parseAsync(process.argv);
