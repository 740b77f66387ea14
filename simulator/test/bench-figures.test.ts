// dhi bench --devices: how far apart the fleet sizes are, from the figures of each size.
import { describe, expect, it } from 'vitest';
import { fleetSpread, type FleetFigures } from '../bench-figures.js';

/** A size's figures: dhi's and the bare route's requests a second in each round. */
const figures = (reference: number[], baseline: number[]) => ({
  results: { telemetry: { requestsPerSecond: reference[0] } },
  baseline: { telemetry: { requestsPerSecond: baseline[0] } },
  roundsRequestsPerSecond: { telemetry: { reference, baseline } },
}) as unknown as FleetFigures;

describe('dhi bench --devices fleetSpread', () => {
  it("takes the sizes' spread of small ratios against each other (a loaded machine's, under 0.1), not against a floor", () => {
    const spread = fleetSpread(['telemetry'], [
      { devices: 1, figures: figures([640, 640], [8000, 8000]) },
      { devices: 3, figures: figures([480, 480], [8000, 8000]) },
    ])!.telemetry;
    expect(spread.againstBare!.throughput).toEqual({ lowest: { devices: 3, ratio: 0.06 }, highest: { devices: 1, ratio: 0.08 }, spread: 0.25 });
    expect(spread.spread).toBe(0.25);
    // Sizes that ran nothing are not apart.
    expect(fleetSpread(['telemetry'], [
      { devices: 1, figures: figures([0], [0]) },
      { devices: 3, figures: figures([0], [0]) },
    ])!.telemetry.spread).toBe(0);
  });
});
