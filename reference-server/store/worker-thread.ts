// How the store starts its threads (telemetry-worker.ts, checkpoint-worker.ts): from dist a thread's
// module is JavaScript; from sources (the tests) tsx compiles it.
import { Worker } from 'node:worker_threads';

/** Starts the thread of `name` (a module of this folder, without its extension). */
export function startStoreThread(name: string, workerData: unknown): Worker {
  // Under tsx a module's URL may end in a query (a thread's modules, loaded through tsImport).
  const fromSources = new URL(import.meta.url).pathname.endsWith('.ts');
  const url = new URL(`./${name}.${fromSources ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSources) return new Worker(url, { workerData });
  const [api, source] = [import.meta.resolve('tsx/esm/api'), url.href].map((u) => JSON.stringify(u));
  return new Worker(`import(${api}).then(({ tsImport }) => tsImport(${source}, ${source}))`, { eval: true, workerData });
}
