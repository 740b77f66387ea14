// Scenarios: the built-in ones (telemetry | longpoll | rpc | mixed) and JSON files validated
// against one schema (compiled once), whose errors name the offending field.
import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { compile } from '../spec/schema-validator.js';
import { parseProfile, type ProfileSpec } from './profiles.js';

export type BuiltinScenario = 'telemetry' | 'longpoll' | 'rpc' | 'mixed';
export const BUILTIN_SCENARIOS: readonly BuiltinScenario[] = ['telemetry', 'longpoll', 'rpc', 'mixed'];

export type TelemetryForm = 'values' | 'timestamped' | 'array';

/** Open model: a fleet-wide arrival rate. Closed model: each device sends, waits `intervalMs`, repeats. */
export type TelemetryPlan =
  | { model: 'open'; rate: number; form: TelemetryForm; batch: number }
  | { model: 'closed'; intervalMs: number; form: TelemetryForm; batch: number }
  | { model: 'off' };

export interface Scenario {
  name: string;
  profile: ProfileSpec;
  telemetry: TelemetryPlan;
  polls: { attributes: boolean; rpc: boolean; timeoutMs: number };
  /** Server-side load issued through the control API. */
  driver: { rpcRate: number; attrRate: number; rpcTimeoutMs: number; rpcApi: 'v1' | 'v2' };
  /** Device-side RPC (operation 7), per device. */
  clientRpc: { intervalMs: number; method: string } | null;
  /** Download the assigned firmware once per device (operation 10). */
  firmware: { title: string; version: string; chunkSize: number } | null;
}

export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

const POLL_TIMEOUT_MS = 30_000; // ThingsBoard's monolith answers 408 only up to 30 s (503 beyond).
const SMART_METER: ProfileSpec = { kind: 'smart-meter' };

const BUILTINS: Record<BuiltinScenario, Scenario> = {
  telemetry: {
    name: 'telemetry',
    profile: SMART_METER,
    telemetry: { model: 'closed', intervalMs: 1000, form: 'values', batch: 1 },
    polls: { attributes: false, rpc: false, timeoutMs: POLL_TIMEOUT_MS },
    driver: { rpcRate: 0, attrRate: 0, rpcTimeoutMs: 10_000, rpcApi: 'v1' },
    clientRpc: null,
    firmware: null,
  },
  longpoll: {
    name: 'longpoll',
    profile: SMART_METER,
    telemetry: { model: 'off' },
    polls: { attributes: true, rpc: false, timeoutMs: POLL_TIMEOUT_MS },
    driver: { rpcRate: 0, attrRate: 10, rpcTimeoutMs: 10_000, rpcApi: 'v1' },
    clientRpc: null,
    firmware: null,
  },
  rpc: {
    name: 'rpc',
    profile: SMART_METER,
    telemetry: { model: 'off' },
    polls: { attributes: false, rpc: true, timeoutMs: POLL_TIMEOUT_MS },
    driver: { rpcRate: 10, attrRate: 0, rpcTimeoutMs: 10_000, rpcApi: 'v1' },
    clientRpc: null,
    firmware: null,
  },
  mixed: {
    name: 'mixed',
    profile: SMART_METER,
    telemetry: { model: 'closed', intervalMs: 10_000, form: 'values', batch: 1 },
    polls: { attributes: true, rpc: true, timeoutMs: POLL_TIMEOUT_MS },
    driver: { rpcRate: 10, attrRate: 10, rpcTimeoutMs: 10_000, rpcApi: 'v1' },
    clientRpc: { intervalMs: 60_000, method: 'getCurrentTime' },
    firmware: null,
  },
};

export function builtinScenario(name: BuiltinScenario): Scenario {
  return structuredClone(BUILTINS[name]);
}

// The scenario file format: every field optional except `name`; `extends` picks the base.
const SCENARIO_FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    extends: { enum: [...BUILTIN_SCENARIOS] },
    profile: { type: 'string', pattern: '^(smart-meter|tracker|plc(:[1-9][0-9]{0,3})?)$' },
    telemetry: {
      oneOf: [
        { const: false },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            rate: { type: 'number', exclusiveMinimum: 0 },
            intervalMs: { type: 'integer', minimum: 1 },
            form: { enum: ['values', 'timestamped', 'array'] },
            batch: { type: 'integer', minimum: 1, maximum: 1000 },
          },
          not: { required: ['rate', 'intervalMs'] },
        },
      ],
    },
    polls: {
      type: 'object',
      additionalProperties: false,
      properties: {
        attributes: { type: 'boolean' },
        rpc: { type: 'boolean' },
        timeoutMs: { type: 'integer', minimum: 1, maximum: 300_000 },
      },
    },
    rpcRate: { type: 'number', minimum: 0 },
    attrRate: { type: 'number', minimum: 0 },
    rpcTimeoutMs: { type: 'integer', minimum: 1, maximum: 300_000 },
    rpcApi: { enum: ['v1', 'v2'] },
    clientRpc: {
      oneOf: [
        { const: false },
        {
          type: 'object',
          additionalProperties: false,
          required: ['intervalMs'],
          properties: {
            intervalMs: { type: 'integer', minimum: 1 },
            method: { type: 'string', minLength: 1 },
          },
        },
      ],
    },
    firmware: {
      oneOf: [
        { const: false },
        {
          type: 'object',
          additionalProperties: false,
          required: ['title', 'version'],
          properties: {
            title: { type: 'string', minLength: 1 },
            version: { type: 'string', minLength: 1 },
            chunkSize: { type: 'integer', minimum: 0 },
          },
        },
      ],
    },
  },
};

interface ScenarioFile {
  name: string;
  extends?: BuiltinScenario;
  profile?: string;
  telemetry?: false | { rate?: number; intervalMs?: number; form?: TelemetryForm; batch?: number };
  polls?: { attributes?: boolean; rpc?: boolean; timeoutMs?: number };
  rpcRate?: number;
  attrRate?: number;
  rpcTimeoutMs?: number;
  rpcApi?: 'v1' | 'v2';
  clientRpc?: false | { intervalMs: number; method?: string };
  firmware?: false | { title: string; version: string; chunkSize?: number };
}

const validateFile = compile(SCENARIO_FILE_SCHEMA);

/** One error, as a sentence that names the field (JSON pointer style, e.g. `telemetry.rate`). */
function describe(error: ErrorObject): string {
  const base = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `field "${join(base, String(params.missingProperty))}" is required`;
  if (error.keyword === 'additionalProperties') return `unknown field "${join(base, String(params.additionalProperty))}"`;
  if (error.keyword === 'not' && base === 'telemetry') return 'field "telemetry" takes either "rate" or "intervalMs", not both';
  if (error.keyword === 'oneOf') return `field "${base}" must be false or an object of the documented shape`;
  return `field "${base || '(root)'}" ${error.message ?? 'is invalid'}`;
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

/** Validate a parsed scenario document; throws ScenarioError naming the first bad field. */
export function scenarioFromJson(document: unknown, source = 'scenario'): Scenario {
  if (!validateFile(document)) {
    const errors = validateFile.errors ?? [];
    // oneOf reports its branches' errors first; the most specific one names the field best.
    const best = errors.find((e) => e.keyword !== 'oneOf' && e.keyword !== 'const' && e.keyword !== 'type') ?? errors[0];
    throw new ScenarioError(`${source}: ${best ? describe(best) : 'invalid'}`);
  }
  const file = document as ScenarioFile;
  const scenario = builtinScenario(file.extends ?? 'mixed');
  scenario.name = file.name;
  if (file.profile) scenario.profile = parseProfile(file.profile);
  if (file.telemetry === false) scenario.telemetry = { model: 'off' };
  else if (file.telemetry) {
    const base = scenario.telemetry.model === 'off' ? { form: 'values' as const, batch: 1 } : scenario.telemetry;
    const form = file.telemetry.form ?? base.form;
    const batch = file.telemetry.batch ?? base.batch;
    if (file.telemetry.rate !== undefined) scenario.telemetry = { model: 'open', rate: file.telemetry.rate, form, batch };
    else {
      const intervalMs = file.telemetry.intervalMs ?? (scenario.telemetry.model === 'closed' ? scenario.telemetry.intervalMs : 1000);
      scenario.telemetry = { model: 'closed', intervalMs, form, batch };
    }
  }
  if (file.polls) scenario.polls = { ...scenario.polls, ...file.polls };
  if (file.rpcRate !== undefined) scenario.driver.rpcRate = file.rpcRate;
  if (file.attrRate !== undefined) scenario.driver.attrRate = file.attrRate;
  if (file.rpcTimeoutMs !== undefined) scenario.driver.rpcTimeoutMs = file.rpcTimeoutMs;
  if (file.rpcApi) scenario.driver.rpcApi = file.rpcApi;
  if (file.clientRpc === false) scenario.clientRpc = null;
  else if (file.clientRpc) scenario.clientRpc = { intervalMs: file.clientRpc.intervalMs, method: file.clientRpc.method ?? 'getCurrentTime' };
  if (file.firmware === false) scenario.firmware = null;
  else if (file.firmware) scenario.firmware = { chunkSize: 0, ...file.firmware };
  return scenario;
}

/** `telemetry|longpoll|rpc|mixed`, or a path to a JSON scenario file. */
export function loadScenario(nameOrFile: string): Scenario {
  if ((BUILTIN_SCENARIOS as readonly string[]).includes(nameOrFile)) return builtinScenario(nameOrFile as BuiltinScenario);
  if (!nameOrFile.endsWith('.json')) {
    throw new ScenarioError(`unknown scenario "${nameOrFile}": expected ${BUILTIN_SCENARIOS.join(', ')} or a .json file`);
  }
  let text: string;
  try {
    text = readFileSync(nameOrFile, 'utf8');
  } catch (error) {
    throw new ScenarioError(`scenario file ${nameOrFile}: cannot read it (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(`scenario file ${nameOrFile}: not valid JSON (${(error as Error).message})`);
  }
  return scenarioFromJson(document, `scenario file ${nameOrFile}`);
}

/** Options given on the command line win over the scenario's own values. */
export interface ScenarioOverrides {
  rate?: number;
  intervalMs?: number;
  profile?: ProfileSpec;
  rpcRate?: number;
  attrRate?: number;
}

export function applyOverrides(scenario: Scenario, overrides: ScenarioOverrides): Scenario {
  if (overrides.rate !== undefined && overrides.intervalMs !== undefined) {
    throw new ScenarioError('--rate (open model) and --interval (closed model) exclude each other');
  }
  const out = structuredClone(scenario);
  const shape = out.telemetry.model === 'off' ? { form: 'values' as const, batch: 1 } : out.telemetry;
  if (overrides.rate !== undefined) out.telemetry = { model: 'open', rate: overrides.rate, form: shape.form, batch: shape.batch };
  if (overrides.intervalMs !== undefined) out.telemetry = { model: 'closed', intervalMs: overrides.intervalMs, form: shape.form, batch: shape.batch };
  if (overrides.profile) out.profile = overrides.profile;
  if (overrides.rpcRate !== undefined) out.driver.rpcRate = overrides.rpcRate;
  if (overrides.attrRate !== undefined) out.driver.attrRate = overrides.attrRate;
  return out;
}
