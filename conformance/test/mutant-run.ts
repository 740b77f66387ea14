// `npm run mutation`'s command for each mutant: start the reference server from the sources of this
// checkout (Stryker's sandbox, with the mutant chosen by __STRYKER_ACTIVE_MUTANT__), run the whole
// suite and the quick part of the robustness group against it in this process, exit 1 when the
// suite fails (the mutant is killed), 0 when it passes (the mutant survived). The suite runs as a CI gate that checks ThingsBoard's behaviour
// too would run it, with --strict (a SHOULD failure fails the run; the reference server passes
// every SHOULD case); DHI_MUTATION_STRICT=0 measures the default gate (MUST failures only). Run
// directly, it checks the unmutated server: `npx tsx conformance/test/mutant-run.ts`.
import { rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../reference-server/server.js';
import { runConform } from '../cli.js';
import { mustFailures } from './suite-run.js';
import type { ReportIndex } from '../report/json.js';

/** Twice the default: the run lasts little more than its slowest case (64 at once queue up and time out). */
const CONCURRENCY = 16;
const STRICT = process.env.DHI_MUTATION_STRICT !== '0';
/**
 * The robustness group runs too (hostile bodies, aborted and concurrent polls), less the cases that
 * take most of its 25 s: the slow clients wait up to 25 s each and the oversized body pushes 64 MiB.
 */
const SLOW_ROBUSTNESS = ['1.7.5', '1.7.6', '1.7.7'];
/** The server answers an unanswered device-side RPC after this, and the suite is told so (7.7.1 stays quick). */
const CLIENT_RPC_TIMEOUT_MS = 1000;
/** A case line (report/console.ts) of a case that fails the run: failed at a blocking level (after `>` when lower than the case's), or errored. */
const BLOCKING = new RegExp(`^(FAIL|ERR ) (?:\\S+>)?(${STRICT ? 'MUST|SHOULD' : 'MUST'}) `);

async function main(): Promise<number> {
  const reportDir = await mkdtemp(join(tmpdir(), 'dhi-mutant-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer({ host: '127.0.0.1', port: 0, httpsPort: -1, db: ':memory:', logLevel: 'silent', clientRpcTimeoutMs: CLIENT_RPC_TIMEOUT_MS });
    // The first blocking failure decides: the mutant is killed, the rest of the run would not change that.
    const print = (line: string) => {
      if (BLOCKING.test(line)) {
        console.log(`killed: ${line.split('\n')[0]}`);
        rmSync(reportDir, { recursive: true, force: true }); // exit() skips the finally below
        process.exit(1);
      }
    };
    const result = await runConform({ target: server.httpUrl, reportDir, concurrency: CONCURRENCY, strict: STRICT, robustness: true, exclude: SLOW_ROBUSTNESS, clientRpcTimeout: CLIENT_RPC_TIMEOUT_MS, print });
    if (result.exitCode !== 0) {
      const index = result.exitCode === 1 ? (JSON.parse(await readFile(join(reportDir, 'index.json'), 'utf8')) as ReportIndex) : undefined;
      console.log(`killed: exit ${result.exitCode}${index ? `; failures: ${mustFailures(index.runs[0].cases, STRICT).join(', ')}` : ''}`);
    } else console.log(`survived: every ${STRICT ? 'MUST and SHOULD' : 'MUST'} case passed`);
    return result.exitCode === 0 ? 0 : 1;
  } catch (error) {
    console.log(`killed: ${(error as Error).message}`);
    return 1;
  } finally {
    await server?.close().catch(() => undefined);
    await rm(reportDir, { recursive: true, force: true });
  }
}

process.exit(await main());
