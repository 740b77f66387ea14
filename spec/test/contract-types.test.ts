import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateContractTypes, typesPath } from '../generate-types.js';

describe('spec/contract-types.ts', () => {
  it('is what openapi-typescript generates from the document now', async () => {
    const generated = await generateContractTypes();
    const checkedIn = readFileSync(typesPath, 'utf8');
    // toBe would print a 5000-line diff; the message says what to do.
    expect(checkedIn === generated, 'spec/contract-types.ts is stale: run npm run types').toBe(true);
  });
});
