// Registers every subcommand. Each area defines its own command (names, options, help) next to
// its code, and imports its implementation lazily so that `dhi serve` does not load the simulator.
import type { Command } from 'commander';
import { registerServe } from '../reference-server/command.js';
import { registerConform } from '../conformance/command.js';
import { registerSimulate, registerBench, registerDemo } from '../simulator/command.js';

export function registerCommands(program: Command): void {
  registerServe(program);
  registerConform(program);
  registerSimulate(program);
  registerBench(program);
  registerDemo(program);
}
