// `npm run bench:robustness`: what hostile clients and hard stops cost `dhi serve`, on loopback in
// about two minutes. kill -9 cycles under write load (acknowledged writes lost, expected 0);
// generated malformed requests (5xx, expected 0); a slow-client attack (all closed within the
// timeouts, a good client's latency meanwhile); SIGTERM cycles with HTTP and HTTPS writers (exit
// code and time; how writes ending after the signal were answered: 200, 503, ECONNREFUSED for a
// new connection; a reset (ECONNRESET, UND_ERR_SOCKET: a request on a keep-alive connection closed
// under it) is expected 0; acknowledged writes lost); a disk-full cycle on a real small filesystem
// (disk-full.ts: acknowledged writes stored, refused ones not, 503 while full, 200 once there is room).
// JSON results go to reports/bench-robustness/<timestamp>.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { malformedRequests, slowClientAttack } from './attacks.js';
import { diskFullCycle } from './disk-full.js';
import { createDevice, insecure, startServe, storedTimestamps, type ServeProcess } from './serve-process.js';

const KILL_CYCLES = 3;
const SIGTERM_CYCLES = 2;
const LOAD_MS = 1500;
const WRITERS = 16;
const MALFORMED = 2000;
const SLOW_CLIENTS = 400;
const SLOW = { header: 2000, body: 4000 };

let nextTs = Date.now() - 86_400_000;

interface Load {
  acknowledged: number[];
  outcomes: Record<string, number>;
  stop(): Promise<void>;
}

/**
 * `WRITERS` writers per base URL posting telemetry with unique timestamps until stopped or refused.
 * `outcomes` counts the answers of requests that end after `signalled()` turned true.
 */
function writeLoad(bases: string[], token: string, signalled: () => boolean): Load {
  const acknowledged: number[] = [];
  const outcomes: Record<string, number> = {};
  let running = true;
  const writer = async (base: string) => {
    while (running) {
      const ts = nextTs++;
      let outcome: string;
      try {
        const res = await request(`${base}/api/v1/${token}/telemetry`, { method: 'POST', dispatcher: insecure, body: JSON.stringify({ ts, values: { seq: ts } }), headers: { 'content-type': 'application/json' } });
        await res.body.dump();
        if (res.statusCode === 200) acknowledged.push(ts);
        outcome = String(res.statusCode);
      } catch (error) {
        outcome = (error as { code?: string }).code ?? 'error';
        running = false;
      }
      if (signalled()) outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  };
  const all = Promise.all(bases.flatMap((base) => Array.from({ length: WRITERS }, () => writer(base))));
  return { acknowledged, outcomes, stop: async () => { running = false; await all; } };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function killCycles(dir: string) {
  const db = join(dir, 'kill.db');
  const token = 'BENCHKILL';
  const cycles = [];
  for (let i = 0; i < KILL_CYCLES; i++) {
    const serve = await startServe(db, false);
    if (i === 0) await createDevice(serve.http, token);
    const load = writeLoad([serve.http], token, () => false);
    await pause(LOAD_MS);
    serve.child.kill('SIGKILL');
    await serve.exited;
    await load.stop();
    const stored = await storedTimestamps(db, token, load.acknowledged);
    cycles.push({ acknowledged: load.acknowledged.length, lost: load.acknowledged.length - stored });
  }
  return { cycles, acknowledgedLost: cycles.reduce((n, c) => n + c.lost, 0) };
}

async function sigtermCycles(dir: string) {
  const db = join(dir, 'term.db');
  const token = 'BENCHTERM';
  const cycles = [];
  for (let i = 0; i < SIGTERM_CYCLES; i++) {
    const serve: ServeProcess = await startServe(db, true);
    if (i === 0) await createDevice(serve.http, token);
    let signalled = false;
    const load = writeLoad([serve.http, serve.https!], token, () => signalled);
    await pause(LOAD_MS);
    const started = Date.now();
    signalled = true;
    serve.child.kill('SIGTERM');
    const code = await serve.exited;
    const exitMs = Date.now() - started;
    await load.stop();
    const stored = await storedTimestamps(db, token, load.acknowledged);
    cycles.push({ exitCode: code, exitMs, afterSignal: load.outcomes, acknowledged: load.acknowledged.length, lost: load.acknowledged.length - stored });
  }
  return { cycles, acknowledgedLost: cycles.reduce((n, c) => n + c.lost, 0), allExitedZero: cycles.every((c) => c.exitCode === 0), maxExitMs: Math.max(...cycles.map((c) => c.exitMs)) };
}

async function withServe<T>(dir: string, name: string, extra: string[], run: (base: string, token: string) => Promise<T>): Promise<T> {
  const serve = await startServe(join(dir, `${name}.db`), false, extra);
  try {
    await createDevice(serve.http, 'BENCHDEVICE');
    return await run(serve.http, 'BENCHDEVICE');
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dhi-bench-robustness-'));
  const started = Date.now();
  try {
    const phase = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      console.error(`bench:robustness: ${name} ...`);
      const result = await run();
      console.error(`bench:robustness: ${name}: ${JSON.stringify(result)}`);
      return result;
    };
    const results = {
      startedAt: new Date(started).toISOString(),
      node: process.version,
      killCycles: await phase('kill -9 cycles', () => killCycles(dir)),
      malformed: await phase('malformed requests', () => withServe(dir, 'malformed', [], (base, token) => malformedRequests(base, token, MALFORMED, 42))),
      slowClients: await phase('slow-client attack', () => withServe(dir, 'slow', ['--header-timeout', String(SLOW.header), '--body-timeout', String(SLOW.body)],
        (base, token) => slowClientAttack(base, token, SLOW_CLIENTS, SLOW.body + 2000))),
      sigtermCycles: await phase('SIGTERM cycles', () => sigtermCycles(dir)),
      diskFull: await phase('disk-full cycle', diskFullCycle),
      durationMs: 0,
    };
    results.durationMs = Date.now() - started;
    const out = join('reports', 'bench-robustness');
    mkdirSync(out, { recursive: true });
    const file = join(out, `${results.startedAt.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    console.log(JSON.stringify(results, null, 2));
    console.log(`bench:robustness: results in ${file}`);
  } finally {
    await insecure.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
