// What one stand-in VU did: its requests and every value added to a metric.
export const log = {
  requests: [] as { method: string; url: string; status: number; error_code: number; timeoutMs: number; tags: Record<string, string> }[],
  metrics: [] as { metric: string; value: number; tags: Record<string, string> }[],
  sleeps: [] as number[],
};
