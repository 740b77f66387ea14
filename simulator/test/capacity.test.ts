import { describe, expect, it } from 'vitest';
import { connectionsPerDevice, planSourceAddresses, processesNeeded } from '../capacity.js';
import { builtinScenario } from '../scenario.js';

describe('fleet layout', () => {
  it('counts the connections a device holds: one per poll, one for the rest if it sends anything else', () => {
    expect(connectionsPerDevice(builtinScenario('mixed'))).toBe(3);
    expect(connectionsPerDevice(builtinScenario('longpoll'))).toBe(1); // attribute poll only
    expect(connectionsPerDevice(builtinScenario('rpc'))).toBe(2); // RPC poll, and its replies
    expect(connectionsPerDevice(builtinScenario('telemetry'))).toBe(1);
  });

  it('keeps every process under the descriptor budget', () => {
    expect(processesNeeded(1000, builtinScenario('mixed'), 0)).toBe(0); // fits in the engine's process
    expect(processesNeeded(10_000, builtinScenario('longpoll'), 0)).toBe(0);
    expect(processesNeeded(10_000, builtinScenario('mixed'), 0)).toBe(2); // 30,000 connections
    expect(processesNeeded(10_000, builtinScenario('mixed'), 4)).toBe(2);
    expect(processesNeeded(50_000, builtinScenario('mixed'), 0)).toBe(8);
    expect(processesNeeded(50_000, builtinScenario('telemetry'), 0)).toBe(3);
  });

  it('spreads processes over 127.0.0.x source addresses only when one address runs out of ports', () => {
    expect(planSourceAddresses('http://127.0.0.1:8080', 4, 20_000)).toEqual([]);
    expect(planSourceAddresses('http://127.0.0.1:8080', 3, 40_000)).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4']);
    expect(planSourceAddresses('http://10.0.0.5:8080', 3, 40_000)).toEqual([]); // not loopback: the system chooses
  });
});
