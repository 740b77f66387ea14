// Reading the Prometheus text format in tests: the value of one sample.

/** The value of one sample (labels as written, in order, `le` first for buckets), or undefined. */
export function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}
