// A shell script that reproduces one case from its transcript: it logs in to the control API for
// $DHI_JWT (curl lines never carry the JWT), re-creates what the case set up (its devices were
// deleted after the run), replays the case's requests, and cleans up again.
import type { CaseRecord } from '../case.js';
import { shellQuote, type Exchange } from '../client.js';
import type { RunReport } from './json.js';

/** The line that sets $DHI_JWT from the control API login of the run. */
export function jwtLine(run: Pick<RunReport, 'controlUrl' | 'login'>): string {
  const user = run.login?.username ?? 'tenant@thingsboard.org';
  // The password never lands in a report: the demo default is public, any other comes from the shell.
  const password = run.login?.passwordIsDefault === false ? '${DHI_PASSWORD:?set DHI_PASSWORD to the control API password}' : '${DHI_PASSWORD:-tenant}';
  const body = `{"username":${JSON.stringify(user)},"password":"'"${password}"'"}`;
  return `export DHI_JWT="\${DHI_JWT:-$(curl -sS -X POST ${shellQuote(`${run.controlUrl}/api/auth/login`)} -H 'content-type: application/json' --data-binary '${body}' | sed -E 's/.*"token":"([^"]+)".*/\\1/')}"`;
}

const PHASES: { phase: NonNullable<Exchange['phase']>; title: string }[] = [
  { phase: 'set-up', title: 'set-up: what the case created before it ran (deleted after the run, so made again here)' },
  { phase: 'case', title: 'the case' },
  { phase: 'clean-up', title: 'clean-up' },
];

/** The id of an entity a POST created (its body had no id, its answer has one), else undefined. */
function createdId(e: Exchange): { id: string; type: string } | undefined {
  if (e.request.method !== 'POST' || e.response?.status !== 200 || !e.request.body || !e.response.body) return undefined;
  try {
    const sent = JSON.parse(e.request.body) as { id?: unknown };
    const got = JSON.parse(e.response.body) as { id?: { id?: unknown; entityType?: unknown } };
    const { id, entityType } = got.id ?? {};
    return !sent.id && typeof id === 'string' && typeof entityType === 'string' ? { id, type: entityType } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The exchanges as shell lines. An entity made again gets a new id: the line that creates it keeps
 * the id in a variable, and later lines use the variable where the run had the old id.
 */
function replayLines(exchanges: Exchange[], renames: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const e of exchanges) {
    let line = e.curl;
    for (const [old, name] of renames) line = line.split(old).join(`'"$${name}"'`);
    const created = createdId(e);
    if (!created) {
      lines.push(line);
      continue;
    }
    const name = `${created.type}_${renames.size + 1}`;
    lines.push(`${name}=$(${line.replace(/^curl -sS -i /, 'curl -sS ')} | sed -E 's/^\\{"id":\\{"entityType":"[A-Z_]+","id":"([^"]+)".*/\\1/')`, `echo "${name}=$${name}"`);
    renames.set(created.id, name);
  }
  return lines;
}

export function reproScript(run: RunReport, record: CaseRecord): string {
  const uses = (e: Exchange) => e.curl.includes('$DHI_JWT');
  const lines = [
    '#!/bin/sh',
    `# dhi conform: reproduce ${record.id} [${record.severity}] ${record.title}`,
    `# target ${run.target}; outcome ${record.outcome}. Long polls wait for their timeout; run the lines one by one to watch.`,
  ];
  if (record.transcript.some(uses)) lines.push('# Control API requests need a JWT in DHI_JWT: log in (or set DHI_JWT yourself).', jwtLine(run));
  if (record.transcript.some((e) => e.curl.includes('=@'))) lines.push('# Uploads read their file from the working folder (the report shows its size and SHA-256).');
  const renames = new Map<string, string>();
  for (const { phase, title } of PHASES) {
    const exchanges = record.transcript.filter((e) => (e.phase ?? 'case') === phase);
    if (exchanges.length) lines.push('', `# ${title}`, ...replayLines(exchanges, renames));
  }
  return `${lines.join('\n')}\n`;
}

/** Cases worth a script: those that did not pass and ran. */
export function needsRepro(record: CaseRecord): boolean {
  return (record.outcome === 'fail' || record.outcome === 'error') && record.transcript.length > 0;
}
