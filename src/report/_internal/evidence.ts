import type { Exchange } from '../../client/exchange.js';
import type { CaseResult } from '../../results/model.js';
import type { CaseRunResult } from '../../results/run-result.js';

/** Looks exchanges up by id; one map per render. */
export function exchangeIndex(result: CaseRunResult): Map<string, Exchange> {
  return new Map(result.exchanges.map((x) => [x.id, x]));
}

/** One evidence line: `METHOD url → status` (or the transport error). */
export function evidenceLine(x: Exchange): string {
  const outcome = x.response ? String(x.response.status) : `no response${x.error ? ` (${x.error})` : ''}`;
  return `${x.request.method} ${x.request.url} → ${outcome}`;
}

/** The evidence of a case as lines, naming ids that were not recorded instead of dropping them silently. */
export function evidenceLines(c: CaseResult, index: Map<string, Exchange>): string[] {
  return c.evidence.map((id) => {
    const x = index.get(id);
    return x ? `${id}${x.label ? ` [${x.label}]` : ''}: ${evidenceLine(x)}` : `${id}: (exchange not recorded)`;
  });
}

/** The replay command of a failed property, when its details carry one. */
export function replayOf(c: CaseResult): string | undefined {
  const replay = c.details?.['replay'];
  return typeof replay === 'string' && replay.length > 0 ? replay : undefined;
}

/** Seconds with millisecond precision, as JUnit and summaries show durations. */
export function seconds(ms: number): string {
  return (Math.max(0, Number.isFinite(ms) ? ms : 0) / 1000).toFixed(3);
}

/** A duration for people: `850 ms`, `12.4 s`, `3 min 05 s`. */
export function humanDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const totalS = Math.round(ms / 1000);
  const h = Math.floor(totalS / 3600);
  const m = Math.floor((totalS % 3600) / 60);
  const s = totalS % 60;
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min ${String(s).padStart(2, '0')} s`;
}
