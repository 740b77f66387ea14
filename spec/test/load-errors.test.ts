import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ContractError, contractPath, loadContractFrom } from '../load.js';

type Doc = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

let dir: string;
let original: Doc;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dhi-contract-'));
  original = parse(await readFile(contractPath, 'utf8')) as Doc;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a modified copy of the contract to a temp file and returns its path. */
async function brokenCopy(name: string, breakIt: (doc: Doc) => void): Promise<string> {
  const doc = structuredClone(original);
  breakIt(doc);
  const file = join(dir, `${name}.openapi.yaml`);
  await writeFile(file, stringify(doc));
  return file;
}

async function problemsOf(file: string): Promise<string[]> {
  try {
    await loadContractFrom(file);
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    return (error as ContractError).problems;
  }
  throw new Error(`${file} loaded without a problem`);
}

const withoutOp = (doc: Doc) => delete doc.paths['/api/v1/{accessToken}/telemetry'].post['x-dhi-op'];
const duplicateId = (doc: Doc) => (doc.paths['/api/v1/{accessToken}/claim'].post.operationId = 'postTelemetry');
/** A JSON Schema keyword with a value JSON Schema forbids (`type` must name a JSON type). */
const invalidSchema = (doc: Doc) => (doc.components.schemas.ClaimRequest.properties = { durationMs: { type: 'long' } });

describe('loadContractFrom() on a broken document', () => {
  it('loads an unmodified copy', async () => {
    const file = await brokenCopy('unmodified', () => {});
    const contract = await loadContractFrom(file);
    expect(contract.byId.get('postTelemetry')?.op).toBe(1);
  });

  it('names a device operation without x-dhi-op', async () => {
    const problems = await problemsOf(await brokenCopy('no-op', withoutOp));
    expect(problems).toEqual([expect.stringMatching(/POST \/api\/v1\/\{accessToken\}\/telemetry.*x-dhi-op/)]);
  });

  it('names a duplicate operationId', async () => {
    const problems = await problemsOf(await brokenCopy('duplicate', duplicateId));
    expect(problems).toEqual([expect.stringMatching(/duplicate operationId postTelemetry/)]);
  });

  it('names an invalid schema', async () => {
    const problems = await problemsOf(await brokenCopy('bad-schema', invalidSchema));
    expect(problems.join('\n')).toMatch(/durationMs/);
  });

  it('throws one ContractError that lists every problem at once', async () => {
    const file = await brokenCopy('all-three', (doc) => {
      withoutOp(doc);
      duplicateId(doc);
      invalidSchema(doc);
    });
    const problems = await problemsOf(file);
    const all = problems.join('\n');
    expect(all).toMatch(/telemetry.*x-dhi-op/);
    expect(all).toMatch(/duplicate operationId postTelemetry/);
    expect(all).toMatch(/durationMs/);
    expect(problems.length).toBeGreaterThanOrEqual(3);
  });

  it('lists the problems found by the OpenAPI schema together with the dhi checks', async () => {
    const file = await brokenCopy('structure', (doc) => {
      withoutOp(doc);
      // A response without its required description: caught by the OpenAPI 3.1 schema itself.
      doc.paths['/api/v1/{accessToken}/claim'].post.responses = { '200': {} };
    });
    const all = (await problemsOf(file)).join('\n');
    expect(all).toMatch(/description/);
    expect(all).toMatch(/telemetry.*x-dhi-op/);
  });

  it('reports a missing file as a ContractError', async () => {
    const problems = await problemsOf(join(dir, 'does-not-exist.yaml'));
    expect(problems.length).toBe(1);
  });
});
