// One table of exit codes for every dhi command, so that a CI job can tell "the target failed"
// from "the test could not run". `dhi --help` and each command's --help print it; the README
// repeats it.
export const EXIT = {
  /** Done: every MUST case passed (conform), every --threshold held (simulate), a clean stop. */
  ok: 0,
  /** The target was tested and failed: a MUST case (conform), a --threshold (simulate); serve: a port is taken. */
  failed: 1,
  /** A bad, missing or conflicting option or value; nothing ran. */
  usage: 2,
  /** The run could not happen: the target is unreachable or refused to set it up; serve: the database cannot be used. */
  cannotRun: 3,
  /** A bug in dhi: the message comes with its stack trace. */
  internal: 70,
  /** Ctrl-C. */
  interrupted: 130,
} as const;

export const EXIT_CODES_HELP = `
Exit codes (the same for every command):
  0    done: every MUST case passed (conform), every --threshold held (simulate)
  1    failed: a MUST case failed or did not run (conform; SHOULD too with --strict;
       with --expect, any case that did not end as the file says), a --threshold
       (simulate), a port is taken (serve)
  2    usage error: a bad, missing or conflicting option or value, a bad --expect
       file or a refused control API login (conform); nothing ran
  3    could not run: the target is unreachable or refused to set up the run;
       serve: the database cannot be used (not a database, newer, no access,
       held by another dhi serve, no room)
  70   internal error: a bug in dhi (reported with its stack trace)
  130  interrupted (Ctrl-C)`;
