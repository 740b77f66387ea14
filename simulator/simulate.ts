// The programmatic entry of a simulation: run it, judge its thresholds, write its reports. The
// CLI, the demo, the bench and the calibration all run through here.
import { runSimulation } from './engine.js';
import { buildSummary, type Summary } from './report/summary.js';
import { writeReports } from './report/write.js';
import type { EngineEvent, SimulationConfig, SimulationResult } from './simulation.js';
import type { Threshold } from './thresholds.js';

/** 130: the shell's code for a run ended by SIGINT (128 + 2), kept for a run stopped early with Ctrl-C. */
export const EXIT = { passed: 0, breached: 1, usage: 2, failed: 3, interrupted: 130 } as const;

export interface SimulateOutcome {
  summary: Summary;
  /** The measurements themselves (histograms and all), for callers that compare them (the calibration). */
  result: SimulationResult;
  reportDir: string;
  exitCode: number;
  sampleToken?: string;
}

/** Run, write reports; the programmatic entry used by the CLI, the demo and tests. */
export async function simulate(
  config: SimulationConfig,
  thresholds: Threshold[],
  reportDir: string,
  emit?: (event: EngineEvent) => void,
  interrupt?: AbortSignal,
): Promise<SimulateOutcome> {
  const result = await runSimulation(config, emit, interrupt);
  const summary = buildSummary(result, thresholds);
  const dir = writeReports(summary, reportDir);
  const exitCode = summary.interrupted ? EXIT.interrupted : summary.passed ? EXIT.passed : EXIT.breached;
  return { summary, result, reportDir: dir, exitCode, sampleToken: result.sampleToken };
}
