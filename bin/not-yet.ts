/** Placeholder action for a subcommand whose issue has not landed yet. */
export function notYet(command: string, what: string): void {
  console.error(`dhi ${command}: ${what} is not built yet. Meanwhile \`dhi serve\` runs the reference server.`);
  process.exitCode = 2;
}
