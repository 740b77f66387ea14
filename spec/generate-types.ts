// Writes spec/contract-types.ts, the TypeScript types of the contract, with openapi-typescript
// from the document as load.ts reads it (`npm run types`); spec/test/contract-types.test.ts fails
// when the checked-in file is stale. A dev tool: left out of the build (tsconfig.build.json), so
// the package never loads openapi-typescript.
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { loadContractFrom, contractPath } from './load.js';

export const typesPath = fileURLToPath(new URL('./contract-types.ts', import.meta.url));

const HEADER = `// Generated from spec/device-http-interface.openapi.yaml by \`npm run types\` (openapi-typescript).
// Do not edit: change the document and run \`npm run types\`. Friendly aliases: spec/types.ts.

`;

/** The file's text. Options: a property with a default is optional (the body validator does not
 * fill defaults in), and a free-form object is Record<string, unknown>, not an empty object. */
export async function generateContractTypes(): Promise<string> {
  // A fresh load: openapi-typescript may annotate the object it is given.
  const { raw } = await loadContractFrom(contractPath);
  const ast = await openapiTS(raw as OpenAPI3, { defaultNonNullable: false, emptyObjectsUnknown: true, silent: true });
  return HEADER + astToString(ast);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(typesPath, await generateContractTypes());
  console.log(`wrote ${typesPath}`);
}
