#!/usr/bin/env node
// The one CLI: dhi serve | conform | simulate | bench | demo.
// Each subcommand lives in its own module and is loaded only when used.
import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands.js';

const program = new Command('dhi')
  .description('Device HTTP Interface toolkit: reference server, conformance suite and load simulator')
  .version('0.1.0')
  .showHelpAfterError()
  .exitOverride();

registerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Usage errors exit 2 (design: a bad option or value exits 2 with a message naming it).
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    console.error(`dhi: ${(error as Error).stack ?? error}`);
    process.exitCode = 1;
  }
}
