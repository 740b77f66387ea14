// Stand-in for k6/metrics: Counter, Rate and Trend log what is added to them.
import { log } from './log.js';

class Metric {
  constructor(readonly name: string) {}
  add(value: number | boolean, tags: Record<string, string> = {}): void {
    log.metrics.push({ metric: this.name, value: Number(value), tags });
  }
}

export class Counter extends Metric {}
export class Rate extends Metric {}
export class Trend extends Metric {
  constructor(name: string, readonly isTime = false) {
    super(name);
  }
}
