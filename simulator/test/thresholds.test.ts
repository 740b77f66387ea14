import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { evaluateThresholds, parseThreshold, type PathFigures } from '../thresholds.js';

const figures = (p99: number, count = 100, errors = 0): PathFigures => ({
  count,
  errors,
  rate: count / 10,
  latencyMs: { count: count + errors, p50: p99 / 2, p90: p99 / 1.5, p99, 'p99.9': p99 * 1.2, max: p99 * 2, meanMs: p99 / 2 },
});

describe('thresholds', () => {
  it('parses repeatable expressions into typed thresholds', () => {
    const list = parseThreshold('telemetry.errors<1', parseThreshold('rpc.p99<50'));
    expect(list).toEqual([
      { expression: 'rpc.p99<50', path: 'rpc', stat: 'p99', comparator: '<', value: 50 },
      { expression: 'telemetry.errors<1', path: 'telemetry', stat: 'errors', comparator: '<', value: 1 },
    ]);
    expect(parseThreshold('attributePush.p99.9 <= 250.5')[0]).toMatchObject({ stat: 'p99.9', comparator: '<=', value: 250.5 });
  });

  it('rejects malformed expressions and unknown paths with a message naming them', () => {
    expect(() => parseThreshold('rpc.p98<50')).toThrow(InvalidArgumentError);
    expect(() => parseThreshold('rpc<50')).toThrow(/expected <path>\.<stat><op><number>/);
    expect(() => parseThreshold('mqtt.p99<50')).toThrow(/unknown path "mqtt"/);
  });

  it('passes and breaches against the measured figures', () => {
    const thresholds = [...parseThreshold('rpc.p99<50'), ...parseThreshold('telemetry.errorRate<0.01'), ...parseThreshold('telemetry.rate>=5')];
    const outcomes = evaluateThresholds(thresholds, { rpc: figures(80), telemetry: figures(10, 100, 2) });
    expect(outcomes.map((o) => o.passed)).toEqual([false, false, true]);
    expect(outcomes[0].actual).toBe(80);
  });

  it('fails any threshold on a path that never ran, saying so', () => {
    const never = evaluateThresholds([...parseThreshold('rpc.p99<50'), ...parseThreshold('rpc.errors<1')], {});
    expect(never.map((o) => o.passed)).toEqual([false, false]);
    expect(never[1]).toMatchObject({ actual: null, message: 'no request ran on path rpc in the steady state' });
    expect(evaluateThresholds(parseThreshold('rpc.errors<1'), { rpc: figures(10, 0, 0) })[0].passed).toBe(false);
  });

  it('counts dropped arrivals as errors: a path of only drops breaches errors<1 and has nothing timed', () => {
    const dropped: PathFigures = { ...figures(0, 0, 3), latencyMs: { ...figures(0).latencyMs, count: 0 } };
    const [errors, p99] = evaluateThresholds([...parseThreshold('rpc.errors<1'), ...parseThreshold('rpc.p99<50')], { rpc: dropped });
    expect(errors).toMatchObject({ passed: false, actual: 3 });
    expect(p99).toMatchObject({ passed: false, message: 'no request of path rpc was timed in the steady state' });
  });
});
