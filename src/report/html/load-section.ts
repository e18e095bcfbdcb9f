/**
 * Extension point for load charts (latency percentiles, throughput over
 * time). The HTML report calls this whenever `RunResult.load` is present and
 * places its output in the "Load" section; returning '' leaves the section
 * out. Whoever adds the charts owns this file: keep the output
 * self-contained (inline SVG, no network) and escape all text.
 */
export function renderLoadSection(_load: unknown): string {
  return '';
}
