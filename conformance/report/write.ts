// Writes the three reports of a report directory from every run stored in it.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reportHtml } from './html.js';
import { indexJson, storeRun, type RunReport } from './json.js';
import { junitXml } from './junit.js';

export async function writeReports(reportDir: string, run: RunReport): Promise<RunReport[]> {
  await mkdir(reportDir, { recursive: true });
  const runs = await storeRun(reportDir, run);
  await Promise.all([
    writeFile(join(reportDir, 'index.json'), indexJson(runs)),
    writeFile(join(reportDir, 'junit.xml'), junitXml(runs)),
    writeFile(join(reportDir, 'index.html'), reportHtml(runs)),
  ]);
  return runs;
}
