// What a check or a case concludes: the severity of a claim, a claim that did not hold, a case that
// could not run. Below case.ts, so the checks and the control client can use it without the case model.

export type Severity = 'MUST' | 'SHOULD' | 'INFO';

export const SEVERITIES: readonly Severity[] = ['MUST', 'SHOULD', 'INFO'];

/** One claim that did not hold. `severity` overrides the case's for a weaker sub-claim. */
export interface Failure {
  check: string;
  expected: unknown;
  actual: unknown;
  message?: string;
  severity?: Severity;
}

/** Thrown by t.skip(). */
export class SkipCase extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SkipCase';
  }
}

/** Does this failure block the run? MUST always; SHOULD only under --strict; INFO never. */
export function blocks(severity: Severity, strict: boolean): boolean {
  return severity === 'MUST' || (strict && severity === 'SHOULD');
}

const RANK: Record<Severity, number> = { MUST: 0, SHOULD: 1, INFO: 2 };

export function strongest(severities: Severity[]): Severity | undefined {
  return [...severities].sort((a, b) => RANK[a] - RANK[b])[0];
}
