import { describe, expect, it } from 'vitest';
import { deviceOperations, loadContract } from '../../spec/load.js';
import { catalogueProblems, compareIds, opOf, type Case } from '../case.js';
import { catalogue, robustness } from '../cases/index.js';
import { catalogueLines, exitCodeOf, globToRegExp, selectCases } from '../cli.js';

const noop = async () => undefined;
const fake = (id: string, severity: Case['severity'] = 'MUST'): Case => ({ id, title: `case ${id}`, requirement: 'r', severity, run: noop });

describe('the case catalogue', () => {
  it('has well-formed, unique ids in numeric order', () => {
    expect(catalogueProblems(catalogue)).toEqual([]);
    const ids = catalogue.map((c) => c.id);
    expect([...ids].sort(compareIds)).toEqual(ids);
  });

  it('keeps the robustness cases (group 7) apart: well-formed, bounded in number, none in the default catalogue', () => {
    expect(catalogueProblems([...catalogue, ...robustness])).toEqual([]);
    expect(robustness.every((c) => c.id.split('.')[1] === '7')).toBe(true);
    expect(robustness.length).toBeGreaterThan(0);
    expect(robustness.length).toBeLessThanOrEqual(20);
    expect(catalogue.some((c) => c.id.split('.')[1] === '7')).toBe(false);
    expect(selectCases(catalogue, ['*.7.*'])).toEqual([]);
  });

  it('covers every device operation of the contract with accepted input and a bad token (provisioning has none)', async () => {
    const ops = new Set(deviceOperations(await loadContract()).map((o) => o.op));
    for (const op of ops) {
      const cases = catalogue.filter((c) => opOf(c.id) === op);
      expect(cases.some((c) => c.id.startsWith(`${op}.1.`)), `op ${op} accepted`).toBe(true);
      if (op !== 9) expect(cases.some((c) => c.id.startsWith(`${op}.3.`)), `op ${op} credentials`).toBe(true);
    }
  });

  it('reports malformed and duplicate ids and empty texts', () => {
    const problems = catalogueProblems([fake('1.1.1'), fake('1.1.1'), fake('11.1.1'), fake('1.8.1'), fake('1.7.1'), { ...fake('2.1.1'), title: ' ' }]);
    expect(problems).toEqual([
      '1.1.1: duplicate id',
      '11.1.1: id is not <op 1-10>.<group 1-7>.<n>',
      '1.8.1: id is not <op 1-10>.<group 1-7>.<n>',
      '2.1.1: empty title',
    ]);
  });
});

describe('case selection', () => {
  const cases = ['1.1.1', '1.2.1', '10.1.1', '4.3.1', '5.3.1'].map((id) => fake(id));

  it('matches id globs: * spans dots, 1.* is not 10.*', () => {
    expect(globToRegExp('1.*').test('10.1.1')).toBe(false);
    expect(selectCases(cases, ['1.*']).map((c) => c.id)).toEqual(['1.1.1', '1.2.1']);
    expect(selectCases(cases, ['*.3.*']).map((c) => c.id)).toEqual(['4.3.1', '5.3.1']);
  });

  it('takes comma-separated and repeated globs, and exclusions', () => {
    expect(selectCases(cases, ['1.1.1,10.*', '4.3.1']).map((c) => c.id)).toEqual(['1.1.1', '10.1.1', '4.3.1']);
    expect(selectCases(cases, [], ['1.*', '*.3.*']).map((c) => c.id)).toEqual(['10.1.1']);
  });

  it('lists the catalogue with a count per operation', () => {
    const lines = catalogueLines(cases);
    expect(lines[0]).toBe('1.1.1   MUST   case 1.1.1');
    expect(lines.at(-1)).toBe('5 cases (op 1: 2, op 4: 1, op 5: 1, op 10: 1)');
  });
});

describe('the exit code', () => {
  const record = (severity: Case['severity'], outcome: 'pass' | 'fail' | 'error' | 'skipped', failedSeverity?: Case['severity']) =>
    ({ id: '1.1.1', title: '', requirement: '', severity, outcome, failedSeverity, failures: [], durationMs: 0, transcript: [] });

  it('is 1 for a MUST failure or error, and for SHOULD failures only under --strict', () => {
    expect(exitCodeOf([record('MUST', 'pass'), record('SHOULD', 'fail', 'SHOULD')], false)).toBe(0);
    expect(exitCodeOf([record('MUST', 'fail', 'MUST')], false)).toBe(1);
    expect(exitCodeOf([record('MUST', 'error')], false)).toBe(1);
    expect(exitCodeOf([record('MUST', 'fail', 'SHOULD')], false)).toBe(0);
    expect(exitCodeOf([record('MUST', 'fail', 'SHOULD')], true)).toBe(1);
    expect(exitCodeOf([record('INFO', 'fail', 'INFO')], true)).toBe(0);
  });

  it('is 1 when a MUST case did not run, unless --allow-skips accepts it; skipped SHOULD cases never count', () => {
    expect(exitCodeOf([record('MUST', 'pass'), record('MUST', 'skipped')], false)).toBe(1);
    expect(exitCodeOf([record('MUST', 'skipped')], true, true)).toBe(0);
    expect(exitCodeOf([record('SHOULD', 'skipped'), record('INFO', 'skipped')], true)).toBe(0);
  });
});
