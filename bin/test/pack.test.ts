// `npm pack` gives a package that installs into an empty folder and runs there: `npx dhi --help`,
// `npx dhi serve`, `npx dhi conform --target ...`, and `import { conform, simulate, serve } from
// 'dhi'` in a TypeScript consumer, type-checked and run, and the README's vitest example as written.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV, install, pack, ROOT, run, startPackedServer, STEP_TIMEOUT_MS } from './packed.js';

let work: string;
let app: string;
let files: string[];
let tarball: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'dhi-pack-'));
  ({ tarball, files } = await pack(work));
  app = join(work, 'app');
  const installed = await install(app, [tarball]);
  expect(installed.code, installed.stderr).toBe(0);
  expect(installed.stderr).not.toMatch(/EBADENGINE/);
}, 2 * STEP_TIMEOUT_MS);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the package npm pack makes', { timeout: STEP_TIMEOUT_MS }, () => {
  it('holds only the built CLI and API with their type declarations, the contract, the README and package.json: no sources, tests or maps', () => {
    expect(files).toContain('dist/bin/dhi.js');
    expect(files).toContain('dist/bin/api.js');
    expect(files).toContain('dist/bin/api.d.ts');
    expect(files).toContain('spec/device-http-interface.openapi.yaml');
    const others = files.filter((f) => !(f.startsWith('dist/') && (f.endsWith('.js') || f.endsWith('.d.ts'))));
    expect(others.sort()).toEqual(['README.md', 'package.json', 'spec/device-http-interface.openapi.yaml']);
    expect(files.filter((f) => /(^|\/)test\//.test(f))).toEqual([]);
  });

  it('answers npx dhi --help in an empty folder it was installed into', async () => {
    const help = await run('npx', ['--no-install', 'dhi', '--help'], app);
    expect(help.code, help.stderr).toBe(0);
    for (const name of ['serve', 'conform', 'simulate', 'bench', 'demo']) expect(help.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
  });

  it('runs npx dhi serve there, and npx dhi conform --target it passes every case', async () => {
    const server = await startPackedServer(app);
    try {
      const conform = await run('npx', ['--no-install', 'dhi', 'conform', '--target', server.url, '--report-dir', join(work, 'reports')], app);
      expect(conform.code, conform.stdout + conform.stderr).toBe(0);
      expect(existsSync(join(work, 'reports', 'index.json'))).toBe(true);
    } finally {
      await server.stop();
    }
  });
});

// A consumer that uses every function and type of the API; tsc checks it against the package's
// declarations (a wrong option or result field is a compile error), then node runs it.
const CONSUMER = `import { conform, ConformNotRun, serve, simulate, type CaseRecord, type ConformResult, type ServerHandle, type SimulateOutcome } from 'dhi';

const server: ServerHandle = await serve({ port: 0, httpsPort: -1, db: ':memory:', logLevel: 'silent' });
try {
  const run: ConformResult = await conform({ target: server.url, cases: ['1.*', '4.1.1'], reportDir: 'reports/conformance' });
  const failed: CaseRecord[] = run.cases.filter((c) => c.outcome !== 'pass' && c.failedSeverity !== 'INFO');
  const sim: SimulateOutcome = await simulate({ target: server.url, devices: 5, duration: 3000, scenario: 'telemetry', interval: 500, warmup: 0, threshold: ['telemetry.errors<1'], reportDir: 'reports/simulate' });
  const telemetry = sim.summary.paths.telemetry;
  let notRun = '';
  try {
    await conform({ target: 'http://127.0.0.1:1' });
  } catch (error) {
    if (error instanceof ConformNotRun) notRun = \`exit \${error.exitCode}\`;
  }
  console.log(JSON.stringify({ exitCode: run.exitCode, cases: run.cases.length, ids: run.cases.map((c) => c.id).slice(0, 2), severities: [...new Set(run.cases.map((c) => c.severity))].sort(), failed: failed.map((c) => c.id), simExit: sim.exitCode, telemetryOk: telemetry?.count ?? 0, telemetryErrors: telemetry?.errors ?? -1, passed: sim.summary.passed, notRun }));
} finally {
  await server.close();
}
`;

const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'], outDir: 'out' }, include: ['consumer.ts'] };

const versionOf = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe('the typed API of the installed package', { timeout: 2 * STEP_TIMEOUT_MS }, () => {
  let consumer: string;
  beforeAll(async () => {
    consumer = join(work, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const installed = await install(consumer, [tarball, `typescript@${versionOf('typescript')}`, `@types/node@${versionOf('@types/node')}`, `vitest@${versionOf('vitest')}`]);
    expect(installed.code, installed.stderr).toBe(0);
  }, 2 * STEP_TIMEOUT_MS);

  it('type-checks a consumer script against the declarations, and the script runs: conform, simulate and serve resolve to their results', async () => {
    writeFileSync(join(consumer, 'consumer.ts'), CONSUMER);
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const compiled = await run('npx', ['--no-install', 'tsc', '-p', '.'], consumer);
    expect(compiled.code, compiled.stdout + compiled.stderr).toBe(0);
    const ran = await run(process.execPath, ['out/consumer.js'], consumer);
    expect(ran.code, ran.stderr).toBe(0);
    const result = JSON.parse(ran.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(result).toMatchObject({ exitCode: 0, ids: ['1.1.1', '1.1.2'], severities: ['INFO', 'MUST', 'SHOULD'], failed: [], simExit: 0, telemetryErrors: 0, passed: true, notRun: 'exit 3' });
    expect(result.cases).toBeGreaterThan(20);
    expect(result.telemetryOk).toBeGreaterThan(0);
    expect(existsSync(join(consumer, 'reports', 'conformance', 'junit.xml'))).toBe(true);
  });

  it('refuses a wrong option at compile time', async () => {
    writeFileSync(join(consumer, 'consumer.ts'), `import { conform } from 'dhi';\nawait conform({ target: 'http://x', concurency: 2 });\n`);
    const compiled = await run('npx', ['--no-install', 'tsc', '-p', '.'], consumer);
    expect(compiled.code).not.toBe(0);
    expect(compiled.stdout).toMatch(/'concurency' does not exist in type 'ConformOptions'/);
  });

  it("runs the README's vitest example as written", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const example = /<!-- example: vitest -->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example, 'README.md has no <!-- example: vitest --> block').toBeDefined();
    expect(example!.trim().split('\n').length).toBeLessThanOrEqual(11);
    writeFileSync(join(consumer, 'conformance.test.ts'), example!);
    const tested = await run('npx', ['--no-install', 'vitest', 'run', 'conformance.test.ts'], consumer, { ...ENV, CI: 'true' });
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/1 passed/);
  });
});
