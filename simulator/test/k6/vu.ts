// One stand-in VU: loads an exported k6 script (its k6 imports resolved to the stand-ins by
// register.ts), runs one of its exported functions for some iterations, and prints on stdout what
// it did as JSON: { result (setup's data), requests, metrics, sleeps }.
// Usage: node --import tsx --import ./register.ts vu.ts <script.ts> <function> <vu id> <first iteration> <iterations> [<data.json>]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import exec from './execution.js';
import { log } from './log.js';

const [script, name, vu, first, iterations, dataFile] = process.argv.slice(2);
(globalThis as { __ENV?: Record<string, string | undefined> }).__ENV = { ...process.env };
const module = (await import(pathToFileURL(script).href)) as Record<string, (data?: unknown) => unknown>;
const data: unknown = dataFile ? JSON.parse(readFileSync(dataFile, 'utf8')) : undefined;
exec.vu.idInTest = Number(vu);
let result: unknown;
for (let i = 0; i < Number(iterations); i++) {
  exec.scenario.iterationInTest = Number(first) + i;
  exec.vu.iterationInScenario = i;
  result = module[name](data);
}
process.stdout.write(JSON.stringify({ result, ...log }));
