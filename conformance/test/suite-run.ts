// Runs the suite quietly into a temporary report directory and reads the records back.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CaseRecord } from '../case.js';
import { blocks } from '../verdict.js';
import { runConform, type ConformOptions } from '../cli.js';
import type { ReportIndex } from '../report/json.js';

export interface SuiteRun {
  exitCode: number;
  records: CaseRecord[];
  lines: string[];
  reportDir: string;
}

export async function runSuite(options: ConformOptions): Promise<SuiteRun> {
  const reportDir = await mkdtemp(join(tmpdir(), 'dhi-conform-'));
  const lines: string[] = [];
  try {
    const result = await runConform({ ...options, reportDir, print: (l) => lines.push(l) });
    const index = result.exitCode === 2 || result.exitCode === 3 ? undefined : (JSON.parse(await readFile(join(reportDir, 'index.json'), 'utf8')) as ReportIndex);
    return { exitCode: result.exitCode, records: index?.runs[0].cases ?? [], lines, reportDir };
  } finally {
    if (!options.reportDir) await rm(reportDir, { recursive: true, force: true });
  }
}

/** Ids of the cases that failed at MUST level (SHOULD too under --strict), or errored. */
export function mustFailures(records: CaseRecord[], strict = false): string[] {
  return records.filter((r) => (r.outcome === 'fail' && blocks(r.failedSeverity ?? r.severity, strict)) || r.outcome === 'error').map((r) => r.id);
}

/** Ids and reasons of MUST and SHOULD cases that did not pass, for readable assertion messages. */
export function notPassing(records: CaseRecord[]): string[] {
  return records
    .filter((r) => r.outcome !== 'pass' && !(r.outcome === 'fail' && r.failedSeverity === 'INFO'))
    .map((r) => `${r.id} ${r.outcome}: ${r.reason ?? r.failures.map((f) => `${f.check} expected ${JSON.stringify(f.expected)} got ${JSON.stringify(f.actual)}`).join('; ')}`);
}
