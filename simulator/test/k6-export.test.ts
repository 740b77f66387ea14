import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportK6, k6Thresholds } from '../k6/export.js';
import { loadTemplates } from '../routes.js';
import { builtinScenario, scenarioFromJson } from '../scenario.js';
import { parseThreshold } from '../thresholds.js';

const require = createRequire(import.meta.url);
const k6Types = dirname(require.resolve('@types/k6/package.json'));
const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');

/** Type-check one k6 script against @types/k6 with a small tsconfig of its own. */
function typeCheck(dir: string, file: string): void {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2020',
        module: 'esnext',
        moduleResolution: 'bundler',
        lib: ['es2020'],
        strict: true,
        noEmit: true,
        types: [],
        paths: { k6: [join(k6Types, 'index.d.ts')], 'k6/*': [join(k6Types, '*')] },
      },
      files: [file, join(k6Types, 'global.d.ts')],
    }),
  );
  execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { stdio: 'pipe' });
}

describe('k6 export', () => {
  it('writes the mixed scenario as a k6 script that type-checks with @types/k6', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dhi-k6-'));
    const file = join(dir, 'mixed.k6.ts');
    const thresholds = [...parseThreshold('rpc.p99<50'), ...parseThreshold('telemetry.errors<1')];
    const input = { scenario: builtinScenario('mixed'), templates: await loadTemplates(), target: 'http://127.0.0.1:8080', controlUrl: 'http://127.0.0.1:8080', username: 'tenant@thingsboard.org', devices: 1000, durationMs: 60_000, requestTimeoutMs: 10_000, maxConnectionsPerDevice: 16 };
    exportK6(file, input, thresholds);
    const script = readFileSync(file, 'utf8');
    expect(script).toContain("from 'k6/http'");
    expect(script).toContain('"/api/v1/{accessToken}/telemetry"');
    expect(script).toMatch(/"dhi_rpc": \[\s*"p\(99\)<50"\s*\]/);
    try {
      typeCheck(dir, file);
    } catch (error) {
      throw new Error(`tsc rejected the k6 script:\n${(error as { stdout?: Buffer }).stdout?.toString()}`);
    }
  });

  it('writes an open-model scenario with an arrival-rate executor that type-checks too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dhi-k6-'));
    const file = join(dir, 'open.k6.ts');
    const scenario = scenarioFromJson({ name: 'open', extends: 'telemetry', telemetry: { rate: 500, form: 'array' }, profile: 'plc:4' });
    exportK6(file, { scenario, templates: await loadTemplates(), target: 'http://127.0.0.1:8080', controlUrl: 'http://127.0.0.1:8080', username: 'u', devices: 10, durationMs: 5000, requestTimeoutMs: 10_000, maxConnectionsPerDevice: 16 }, []);
    expect(readFileSync(file, 'utf8')).toContain("executor: 'constant-arrival-rate', rate: 500");
    typeCheck(dir, file);
  });

  it('translates thresholds to k6 metrics', () => {
    const list = ['rpc.p99.9<80', 'telemetry.errorRate<0.01', 'telemetry.rate>=900', 'clientRpc.mean<20'].flatMap((e) => parseThreshold(e));
    expect(k6Thresholds(list)).toEqual({
      dhi_rpc: ['p(99.9)<80'],
      dhi_telemetry_failed: ['rate<0.01'],
      dhi_telemetry_ok: ['rate>=900'],
      dhi_clientRpc: ['avg<20'],
    });
  });
});
