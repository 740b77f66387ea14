import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../load.js';
import type { JsonSchema } from '../schema-validator.js';
import { compile, describeErrors } from '../schema-validator.js';

interface Example {
  /** JSON pointer-ish location in the dereferenced document. */
  where: string;
  value: unknown;
  schema: JsonSchema;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/**
 * Every `examples` / `example` in the dereferenced document, with the schema it illustrates:
 * media types, parameters and headers (`schema` next to `examples`/`example`), and JSON Schema
 * `examples` arrays inside schemas. Anything else named example is reported as unplaced.
 */
function collectExamples(document: unknown): { examples: Example[]; unplaced: string[] } {
  const examples: Example[] = [];
  const unplaced: string[] = [];
  const seen = new WeakSet<object>();

  const visit = (node: unknown, where: string): void => {
    if (!isNode(node) || seen.has(node)) return;
    seen.add(node);
    const schema = isNode(node.schema) ? (node.schema as JsonSchema) : undefined;
    if ('examples' in node) {
      const value = node.examples;
      if (schema && isNode(value) && !Array.isArray(value)) {
        for (const [name, example] of Object.entries(value)) {
          if (isNode(example) && 'value' in example) examples.push({ where: `${where}/examples/${name}`, value: example.value, schema });
          else unplaced.push(`${where}/examples/${name} (no value)`);
        }
      } else if (!schema && Array.isArray(value) && looksLikeSchema(node)) {
        value.forEach((v, i) => examples.push({ where: `${where}/examples/${i}`, value: v, schema: node as JsonSchema }));
      } else if (!isPropertiesMap(where)) {
        unplaced.push(`${where}/examples`);
      }
    }
    if ('example' in node && !isPropertiesMap(where)) {
      if (schema) examples.push({ where: `${where}/example`, value: node.example, schema });
      else if (looksLikeSchema(node)) examples.push({ where: `${where}/example`, value: node.example, schema: node as JsonSchema });
      else unplaced.push(`${where}/example`);
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'examples' || key === 'example') continue;
      visit(child, `${where}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };

  visit(document, '#');
  return { examples, unplaced };
}

const SCHEMA_KEYWORDS = ['type', 'properties', 'items', 'oneOf', 'anyOf', 'allOf', 'const', 'enum', '$ref', 'if'];
function looksLikeSchema(node: Node): boolean {
  return SCHEMA_KEYWORDS.some((k) => k in node);
}
/** A `properties` map may legitimately have a property named `example(s)`. */
function isPropertiesMap(where: string): boolean {
  return where.endsWith('/properties');
}

let found: { examples: Example[]; unplaced: string[] };

beforeAll(async () => {
  const { document } = await loadContract();
  found = collectExamples(document);
});

describe('the examples in the contract', () => {
  it('are all found next to a schema', () => {
    expect(found.unplaced).toEqual([]);
    // The document illustrates each telemetry form, provisioning outcome and more: far over a dozen.
    expect(found.examples.length).toBeGreaterThanOrEqual(17);
  });

  it('include request bodies, responses and the shared error responses', () => {
    const places = found.examples.map((e) => e.where);
    expect(places.some((w) => w.includes('/requestBody/'))).toBe(true);
    expect(places.some((w) => w.includes('/responses/200/'))).toBe(true);
    // Shared components/responses are dereferenced into the operations: found there (first place seen).
    expect(places.some((w) => w.includes('/responses/400/'))).toBe(true);
  });

  it('each validate against their schema (Ajv, JSON Schema draft 2020-12)', () => {
    const failures: string[] = [];
    for (const example of found.examples) {
      const validate = compile(example.schema);
      if (!validate(example.value)) {
        failures.push(`${example.where}: ${describeErrors(validate.errors).join('; ')} in ${JSON.stringify(example.value)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
