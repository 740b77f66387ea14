// `dhi simulate --calibrate [plan]`: what the built-in target does, written as
// `latency=20ms,silence=2s,errors=10%,hang=2%` (any subset; the rest keep their defaults). Parsed
// once at the edge; the silence is placed in the middle of the run once the duration is known.
import { InvalidArgumentError } from 'commander';
import { durationMs } from '../../cli/option-parsers.js';
import type { TargetPlan } from './known-target.js';

/** The plan as written: the silence's length only (0: none), shares as fractions. */
export interface CalibrationPlan {
  latencyMs: number;
  silenceMs: number;
  errorShare: number;
  hangShare: number;
}

/** The issue's three situations in one run: answers after 20 ms, a 2 s silence, 10 % refused, 2 % never answered. */
export const DEFAULT_CALIBRATION: CalibrationPlan = { latencyMs: 20, silenceMs: 2000, errorShare: 0.1, hangShare: 0.02 };

const KEYS = ['latency', 'silence', 'errors', 'hang'] as const;

function share(key: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)%$/.exec(value.trim());
  if (!match || Number(match[1]) > 100) throw new InvalidArgumentError(`${key}= takes a share such as 10%, got "${value}".`);
  return Number(match[1]) / 100;
}

/** commander parser for `--calibrate [plan]`; `true` (the flag alone) is the default plan. */
export function parseCalibration(text: string | true): CalibrationPlan {
  const plan = { ...DEFAULT_CALIBRATION };
  if (text === true || text.trim() === '') return plan;
  for (const part of text.split(',')) {
    const [key, value = ''] = part.split('=').map((s) => s.trim());
    if (!(KEYS as readonly string[]).includes(key)) throw new InvalidArgumentError(`unknown calibration setting "${key}": expected ${KEYS.map((k) => `${k}=`).join(', ')}.`);
    if (key === 'latency') plan.latencyMs = value === '0' ? 0 : durationMs(value);
    else if (key === 'silence') plan.silenceMs = value === '0' ? 0 : durationMs(value);
    else if (key === 'errors') plan.errorShare = share(key, value);
    else plan.hangShare = share(key, value);
  }
  if (plan.errorShare + plan.hangShare > 1) throw new InvalidArgumentError('errors= and hang= together take more than 100% of the requests.');
  return plan;
}

/** The target's plan for a run of `durationMs`: the silence in its middle; null when the run is too short to hold it. */
export function targetPlan(plan: CalibrationPlan, durationMs: number, seed: number): TargetPlan | null {
  if (plan.silenceMs > 0 && durationMs < 2 * plan.silenceMs) return null;
  const silence = plan.silenceMs > 0 ? { afterMs: Math.round((durationMs - plan.silenceMs) / 2), forMs: plan.silenceMs } : null;
  return { latencyMs: plan.latencyMs, silence, errorShare: plan.errorShare, hangShare: plan.hangShare, seed };
}

export function describePlan(plan: CalibrationPlan): string {
  const parts = [`answers after ${plan.latencyMs} ms`];
  if (plan.silenceMs) parts.push(`silent for ${plan.silenceMs / 1000} s mid-run`);
  if (plan.errorShare) parts.push(`${Math.round(plan.errorShare * 1000) / 10} % answered 503`);
  if (plan.hangShare) parts.push(`${Math.round(plan.hangShare * 1000) / 10} % never answered`);
  return parts.join(', ');
}
