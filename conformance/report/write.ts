// Writes the reports of a report directory: index.json and index.html from every run stored in it
// (agents side by side), junit.xml from this run only (CI counts what it ran), and a reproduction
// script per failed case of this run (repro/<id>.sh).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reportHtml } from './html.js';
import { indexJson, storeRun, type RunReport } from './json.js';
import { junitXml } from './junit.js';
import { needsRepro, reproScript } from './repro.js';

export const REPRO_DIR = 'repro';

export async function writeReports(reportDir: string, run: RunReport): Promise<RunReport[]> {
  await mkdir(reportDir, { recursive: true });
  const runs = await storeRun(reportDir, run);
  const repro = join(reportDir, REPRO_DIR);
  await rm(repro, { recursive: true, force: true });
  const failed = run.cases.filter(needsRepro);
  if (failed.length) await mkdir(repro, { recursive: true });
  await Promise.all([
    writeFile(join(reportDir, 'index.json'), indexJson(runs)),
    writeFile(join(reportDir, 'junit.xml'), junitXml([run])),
    writeFile(join(reportDir, 'index.html'), reportHtml(runs)),
    ...failed.map((r) => writeFile(join(repro, `${r.id}.sh`), reproScript(run, r), { mode: 0o755 })),
  ]);
  return runs;
}
