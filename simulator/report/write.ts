// Writes a run's summary to disk: the JSON that scripts read and the HTML page that people read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderHtml } from './html.js';
import type { Summary } from './summary.js';

/** `reports/simulate/<timestamp>/{summary.json,report.html}`; returns the folder. */
export function writeReports(summary: Summary, reportDir: string): string {
  const stamp = summary.startedAt.replace(/[:.]/g, '-');
  const dir = join(reportDir, stamp);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(dir, 'report.html'), renderHtml(summary));
  return dir;
}
