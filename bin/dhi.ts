#!/usr/bin/env node
// The one CLI: dhi serve | conform | simulate | bench | demo.
// Each subcommand lives in its own module and is loaded only when used.
import { Command, CommanderError } from 'commander';
import { EXIT, EXIT_CODES_HELP } from '../cli/exit-codes.js';
import { unreachableReason } from '../cli/unreachable.js';
import { registerCommands } from './commands.js';

const program = new Command('dhi')
  .description('Device HTTP Interface toolkit: reference server, conformance suite and load simulator')
  .version('0.1.0')
  .showHelpAfterError("(run 'dhi --help' for the commands)")
  .addHelpText('after', EXIT_CODES_HELP)
  .exitOverride();

registerCommands(program);
// `dhi conform --list | head` closes the pipe early: not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(EXIT.ok);
});
// A usage error prints the one useful line and a hint, not the whole help.
for (const command of program.commands) {
  command.showHelpAfterError(`(run 'dhi ${command.name()} --help' for its options)`).addHelpText('after', EXIT_CODES_HELP);
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end with a CommanderError of exit code 0.
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    const name = program.commands.find((c) => c.name() === process.argv[2])?.name();
    const prefix = name ? `dhi ${name}` : 'dhi';
    const unreachable = unreachableReason(error);
    if (unreachable) {
      console.error(`${prefix}: cannot reach the target: ${unreachable}`);
      process.exitCode = EXIT.cannotRun;
    } else {
      console.error(`${prefix}: internal error (a bug in dhi; please report it with what follows): ${(error as Error).stack ?? error}`);
      process.exitCode = EXIT.internal;
    }
  }
}
