import { describe, expect, it } from 'vitest';
import { planSourceAddresses, processesNeeded } from '../engine.js';
import { builtinScenario } from '../scenario.js';

describe('fleet layout', () => {
  it('keeps every process under the descriptor budget', () => {
    expect(processesNeeded(1000, builtinScenario('mixed'))).toBe(1);
    expect(processesNeeded(10_000, builtinScenario('longpoll'))).toBe(1);
    expect(processesNeeded(10_000, builtinScenario('mixed'))).toBe(2); // two polls a device
    expect(processesNeeded(50_000, builtinScenario('mixed'))).toBe(6);
    expect(processesNeeded(50_000, builtinScenario('telemetry'))).toBe(1); // no polls: short pools only
  });

  it('spreads processes over 127.0.0.x source addresses only when one address runs out of ports', () => {
    expect(planSourceAddresses('http://127.0.0.1:8080', 4, 20_000)).toEqual([]);
    expect(planSourceAddresses('http://127.0.0.1:8080', 3, 40_000)).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4']);
    expect(planSourceAddresses('http://10.0.0.5:8080', 3, 40_000)).toEqual([]); // not loopback: the system chooses
  });
});
