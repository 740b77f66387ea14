// Runs a composite GitHub action's steps here, as the runner would: inputs and step outputs
// substituted into `env`, `with`, `working-directory` and `if`, each `run` step in
// `bash --noprofile --norc -eo pipefail` with a GITHUB_OUTPUT file of its own, later steps skipped
// after a failure unless their `if` says always(). A `uses` step is not run (it is another action):
// its `with` is recorded, and `uses` gives the outputs it would set.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { collect, ENV, NPM_SHIM, STEP_TIMEOUT_MS } from './packed.js';

interface ActionStep {
  name: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}

interface ActionFile {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface StepRun {
  name: string;
  ran: boolean;
  uses?: string;
  with?: Record<string, string>;
  code?: number | null;
  stdout?: string;
  stderr?: string;
}

export interface ActionRun {
  steps: StepRun[];
  outputs: Record<string, string>;
  failed: boolean;
}

export interface RunnerContext {
  /** GITHUB_* and RUNNER_* variables (GITHUB_OUTPUT is set per step). */
  env: Record<string, string>;
  /** A directory for the per-step output files. */
  scratch: string;
  /** The outputs a `uses` step would set. */
  uses?(step: StepRun): Record<string, string>;
}

export function readAction(file: string): ActionFile {
  return parse(readFileSync(file, 'utf8')) as ActionFile;
}

export async function runAction(file: string, given: Record<string, string>, context: RunnerContext): Promise<ActionRun> {
  const action = readAction(file);
  if (action.runs.using !== 'composite') throw new Error(`${file}: not a composite action`);
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    if (spec.required && given[name] === undefined) throw new Error(`input ${name} is required`);
    inputs[name] = given[name] ?? spec.default ?? '';
  }
  const outputs: Record<string, Record<string, string>> = {};
  const value = (path: string): string => {
    const [scope, name, kind, key] = path.split('.');
    if (scope === 'inputs') return inputs[name] ?? '';
    if (scope === 'steps' && kind === 'outputs') return outputs[name]?.[key] ?? '';
    throw new Error(`unsupported expression ${path}`);
  };
  const expand = (text: string) => text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, path: string) => value(path));
  let failed = false;
  // `always()`, `success()`, `failure()` and `<path> != ''` / `== ''`, joined by &&.
  const condition = (text: string | undefined): boolean => {
    if (!text) return !failed;
    const terms = text.split('&&').map((t) => t.trim());
    const statusChecked = terms.some((t) => /^(always|success|failure)\(\)$/.test(t));
    return (statusChecked || !failed) && terms.every((t) => {
      if (t === 'always()') return true;
      if (t === 'success()') return !failed;
      if (t === 'failure()') return failed;
      const compare = /^([\w.-]+)\s*(!=|==)\s*''$/.exec(t);
      if (!compare) throw new Error(`unsupported condition ${t}`);
      return (value(compare[1]) !== '') === (compare[2] === '!=');
    });
  };

  const steps: StepRun[] = [];
  for (const [index, step] of action.runs.steps.entries()) {
    const record: StepRun = { name: step.name, ran: false };
    steps.push(record);
    if (!condition(step.if)) continue;
    if (step.uses) {
      Object.assign(record, { uses: step.uses, with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v))])) });
      if (step.id) outputs[step.id] = context.uses?.(record) ?? {};
      continue;
    }
    if (step.shell !== 'bash') throw new Error(`step ${step.name}: only bash steps are supported`);
    const outputFile = join(context.scratch, `output-${index}`);
    writeFileSync(outputFile, '');
    const env = { ...ENV, ...context.env, GITHUB_OUTPUT: outputFile, ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v))])) };
    const script = join(context.scratch, `step-${index}.sh`);
    writeFileSync(script, `${NPM_SHIM}\n${expand(step.run ?? '')}`);
    const cwd = step['working-directory'] ? expand(step['working-directory']) : context.env.GITHUB_WORKSPACE;
    const result = await collect(spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: STEP_TIMEOUT_MS }));
    Object.assign(record, { ran: true, ...result });
    if (step.id) outputs[step.id] = Object.fromEntries(readFileSync(outputFile, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    if (result.code !== 0) failed = true;
  }
  return { steps, outputs: Object.fromEntries(Object.entries(action.outputs).map(([name, o]) => [name, expand(o.value)])), failed };
}
