import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyOverrides, builtinScenario, loadScenario, scenarioFromJson, ScenarioError } from '../scenario.js';

function errorOf(document: unknown): string {
  try {
    scenarioFromJson(document, 'scenario file s.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return (error as Error).message;
  }
  throw new Error('expected a ScenarioError');
}

describe('scenarios', () => {
  it('offers the four built-in scenarios by name', () => {
    expect(loadScenario('telemetry').telemetry.model).toBe('closed');
    expect(loadScenario('longpoll').polls).toMatchObject({ attributes: true, rpc: false });
    expect(loadScenario('rpc').driver.rpcRate).toBeGreaterThan(0);
    expect(loadScenario('mixed').polls).toMatchObject({ attributes: true, rpc: true });
  });

  it('builds a file scenario over the base it extends', () => {
    const s = scenarioFromJson({ name: 'meters', extends: 'telemetry', profile: 'plc:4', telemetry: { rate: 250, form: 'timestamped' }, rpcRate: 2 });
    expect(s.name).toBe('meters');
    expect(s.profile).toEqual({ kind: 'plc', lines: 4 });
    expect(s.telemetry).toEqual({ model: 'open', rate: 250, form: 'timestamped', batch: 1 });
    expect(s.driver.rpcRate).toBe(2);
    expect(s.polls.attributes).toBe(false);
  });

  it('loads the example scenario file', () => {
    const s = loadScenario(new URL('../scenarios/fleet-example.json', import.meta.url).pathname);
    expect(s).toMatchObject({ name: 'fleet-example', profile: { kind: 'tracker' }, telemetry: { model: 'open', rate: 200, form: 'timestamped' } });
    expect(s.driver).toEqual({ rpcRate: 5, attrRate: 5, rpcTimeoutMs: 10_000, rpcApi: 'v2' });
  });

  it('names a missing required field', () => {
    expect(errorOf({ profile: 'tracker' })).toBe('scenario file s.json: field "name" is required');
  });

  it('names an unknown field, also nested', () => {
    expect(errorOf({ name: 'x', rpcrate: 5 })).toContain('unknown field "rpcrate"');
    expect(errorOf({ name: 'x', polls: { timeout: 5 } })).toContain('unknown field "polls.timeout"');
  });

  it('names a field with a value out of range or of the wrong type', () => {
    expect(errorOf({ name: 'x', attrRate: -1 })).toContain('field "attrRate" must be >= 0');
    expect(errorOf({ name: 'x', polls: { timeoutMs: 'long' } })).toContain('field "polls.timeoutMs"');
    expect(errorOf({ name: 'x', telemetry: { rate: 0 } })).toContain('field "telemetry.rate"');
    expect(errorOf({ name: 'x', profile: 'fridge' })).toContain('field "profile"');
  });

  it('refuses a telemetry plan with both a rate and an interval', () => {
    expect(errorOf({ name: 'x', telemetry: { rate: 5, intervalMs: 1000 } })).toContain('"telemetry" takes either "rate" or "intervalMs"');
  });

  it('reports an unreadable or malformed file with its name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dhi-scenario-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"name": ');
    expect(() => loadScenario(bad)).toThrow(/bad\.json: not valid JSON/);
    expect(() => loadScenario(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot read it \(ENOENT\)/);
    expect(() => loadScenario('soak')).toThrow(/unknown scenario "soak"/);
  });

  it('lets command-line options win and keeps the two telemetry models apart', () => {
    const open = applyOverrides(builtinScenario('mixed'), { rate: 500, rpcRate: 0, profile: { kind: 'tracker' } });
    expect(open.telemetry).toMatchObject({ model: 'open', rate: 500 });
    expect(open.driver.rpcRate).toBe(0);
    expect(open.profile.kind).toBe('tracker');
    expect(applyOverrides(builtinScenario('longpoll'), { intervalMs: 2000 }).telemetry).toMatchObject({ model: 'closed', intervalMs: 2000 });
    expect(() => applyOverrides(builtinScenario('mixed'), { rate: 5, intervalMs: 100 })).toThrow(/exclude each other/);
  });
});
