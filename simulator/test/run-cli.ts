// The dhi CLI from sources in a child process, for tests of exit codes, output and signals.
import { spawn, type ChildProcess } from 'node:child_process';

const DHI = new URL('../../bin/dhi.ts', import.meta.url).pathname;

/** Run the CLI; `onOutput` sees stdout as it grows (and may signal the child). */
export function dhi(args: string[], onOutput?: (stdout: string, child: ChildProcess) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', DHI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      onOutput?.(stdout, child);
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
