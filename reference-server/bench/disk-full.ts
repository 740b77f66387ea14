// The disk-full cycle of `npm run bench:robustness`: `dhi serve` on a real small filesystem (a tmpfs
// of 8 MB in a private mount namespace, which needs root and util-linux's unshare and nsenter), the
// disk filled but for a little room, writers posting telemetry until it is full; then the room
// given back, more writes, kill -9, a restart, and the acknowledged and refused writes looked up in
// what the restarted server has. Expected: every acknowledged write stored, no refused one, the
// refusals 503, reads 200 while full, writes 200 again once there is room.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createDevice, insecure, ROOT, startServe, tenantLogin, type ServeProcess } from './serve-process.js';

const TMPFS_SIZE = '8m';
/** Room left on the filesystem before the writers start. */
const ROOM_BYTES = 1_048_576;
const WRITERS = 8;
const VALUE = 'x'.repeat(4000);
/** The writers stop once this many answers in a row were refusals, or after this many writes (a server that never refuses). */
const REFUSALS_IN_A_ROW = 200;
const MAX_WRITES = 3000;
const AFTER_ROOM = 20;
const TOKEN = 'BENCHFULL';

/** Why this machine cannot run the cycle, or undefined when it can. */
function cannotRun(): string | undefined {
  if (process.platform !== 'linux') return 'a private mount namespace needs Linux';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs in a private mount namespace needs root';
  for (const tool of ['unshare', 'nsenter', 'truncate', 'dd']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} (util-linux, coreutils) is not installed`;
  }
  return undefined;
}

/** A process holding a private mount namespace with a tmpfs mounted on `dir`; commands run inside it. */
async function mountNamespace(dir: string) {
  const holder: ChildProcess = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o size=$1 tmpfs "$0" && echo mounted && exec sleep 86400', dir, TMPFS_SIZE],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.once('data', () => resolve());
    holder.once('exit', (code) => reject(new Error(`cannot mount a tmpfs in a private namespace (exit ${code})`)));
  });
  // nsenter starts in the namespace's root folder unless told otherwise.
  const prefix = ['nsenter', '-t', String(holder.pid), '-m', `--wd=${ROOT}`, '--'];
  const run = (...command: string[]) => {
    const result = spawnSync(prefix[0], [...prefix.slice(1), ...command], { encoding: 'utf8' });
    return result.stdout;
  };
  return {
    prefix,
    /** Fills the filesystem, then frees `room` bytes of the filler. */
    fill(room: number) {
      run('sh', '-c', 'dd if=/dev/zero of="$0" bs=64k 2>/dev/null; truncate -s -$1 "$0"', join(dir, 'filler'), String(room));
    },
    free: () => run('rm', '-f', join(dir, 'filler')),
    usage: () => run('df', '-k', '--output=size,used,avail', dir).trim().split('\n').at(-1)!.trim(),
    async close() {
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    },
  };
}

const post = async (base: string, path: string, body: unknown) => {
  const res = await request(`${base}${path}`, { method: 'POST', dispatcher: insecure, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  await res.body.dump();
  return res.statusCode;
};

/** Telemetry writers until the server has refused REFUSALS_IN_A_ROW writes in a row (or MAX_WRITES were sent). */
async function fillUp(base: string, nextTs: () => number) {
  const acknowledged: number[] = [];
  const refused: number[] = [];
  const answers: Record<string, number> = {};
  let inARow = 0;
  const writer = async () => {
    while (inARow < REFUSALS_IN_A_ROW && acknowledged.length + refused.length < MAX_WRITES) {
      const ts = nextTs();
      const status = await post(base, `/api/v1/${TOKEN}/telemetry`, { ts, values: { pad: VALUE } }).catch((error: { code?: string }) => error.code ?? 'error');
      answers[status] = (answers[status] ?? 0) + 1;
      if (status === 200) acknowledged.push(ts);
      else refused.push(ts);
      inARow = status === 200 ? 0 : inARow + 1;
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  return { acknowledged, refused, answers };
}

/** The device's stored timestamps, as a server started afterwards reads them. */
async function storedTimestamps(base: string, jwt: string, deviceId: string): Promise<Set<number>> {
  const res = await request(`${base}/api/plugins/telemetry/DEVICE/${deviceId}/values/timeseries?keys=pad&startTs=0&endTs=${Date.now() + 86_400_000}&limit=100000`,
    { dispatcher: insecure, headers: { 'x-authorization': `Bearer ${jwt}` } });
  const body = (await res.body.json()) as { pad?: { ts: number }[] };
  return new Set((body.pad ?? []).map((v) => v.ts));
}

async function adminSession(base: string): Promise<{ jwt: string; deviceId: string }> {
  const jwt = await tenantLogin(base, insecure);
  const device = await request(`${base}/api/tenant/device?deviceName=bench-${TOKEN}`, { dispatcher: insecure, headers: { 'x-authorization': `Bearer ${jwt}` } });
  return { jwt, deviceId: ((await device.body.json()) as { id: { id: string } }).id.id };
}

export async function diskFullCycle() {
  const reason = cannotRun();
  if (reason) return { skipped: reason };
  const dir = mkdtempSync(join(tmpdir(), 'dhi-bench-diskfull-'));
  const ns = await mountNamespace(dir);
  const db = join(dir, 'dhi.db');
  let serve: ServeProcess | undefined;
  try {
    serve = await startServe(db, false, [], ns.prefix);
    await createDevice(serve.http, TOKEN);
    ns.fill(ROOM_BYTES);
    const before = ns.usage();
    let ts = Date.now() - 86_400_000;
    const full = await fillUp(serve.http, () => ts++);
    // While full: a client attribute write is refused the same way, a read answers.
    const attributeWhileFull = await post(serve.http, `/api/v1/${TOKEN}/attributes`, { note: VALUE });
    const read = await request(`${serve.http}/api/v1/${TOKEN}/attributes`, { dispatcher: insecure });
    await read.body.dump();
    ns.free();
    const afterRoom: number[] = [];
    const afterRoomAnswers: Record<string, number> = {};
    for (let i = 0; i < AFTER_ROOM; i++) {
      const at = ts++;
      const status = await post(serve.http, `/api/v1/${TOKEN}/telemetry`, { ts: at, values: { pad: VALUE } });
      afterRoomAnswers[status] = (afterRoomAnswers[status] ?? 0) + 1;
      if (status === 200) afterRoom.push(at);
    }
    serve.child.kill('SIGKILL');
    await serve.exited;
    serve = await startServe(db, false, [], ns.prefix);
    const session = await adminSession(serve.http);
    const stored = await storedTimestamps(serve.http, session.jwt, session.deviceId);
    const acknowledged = [...full.acknowledged, ...afterRoom];
    return {
      filesystem: `tmpfs ${TMPFS_SIZE} in a private mount namespace, ${ROOM_BYTES} bytes of room when the writers started (df -k size used avail: ${before})`,
      acknowledged: acknowledged.length,
      acknowledgedStored: acknowledged.filter((t) => stored.has(t)).length,
      acknowledgedLost: acknowledged.filter((t) => !stored.has(t)).length,
      refused: full.refused.length,
      refusedStored: full.refused.filter((t) => stored.has(t)).length,
      answersWhileFilling: full.answers,
      attributeWhileFull,
      readWhileFull: read.statusCode,
      afterRoom: afterRoomAnswers,
    };
  } finally {
    if (serve) {
      serve.child.kill('SIGKILL');
      await serve.exited;
    }
    await ns.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
