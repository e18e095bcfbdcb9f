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
function evidenceLines(c: CaseResult, index: Map<string, Exchange>): string[] {
  return idLines(c.evidence, index);
}

function idLines(ids: readonly string[], index: Map<string, Exchange>): string[] {
  return ids.map((id) => {
    const x = index.get(id);
    return x ? `${id}${x.label ? ` [${x.label}]` : ''}: ${evidenceLine(x)}` : `${id}: (exchange not recorded)`;
  });
}

/**
 * A case's evidence split as reports show it: the exchanges that decided
 * it (a property's `details.decisive`, in its order) and the others (setup,
 * fill requests) in the order they were made. No decisive exchanges when the
 * case names none.
 */
export function evidenceGroups(c: CaseResult): { decisive: string[]; others: string[] } {
  const named = c.details?.['decisive'];
  const ids = Array.isArray(named) ? named.filter((id): id is string => typeof id === 'string' && c.evidence.includes(id)) : [];
  const decisive = [...new Set(ids)];
  return { decisive, others: c.evidence.filter((id) => !decisive.includes(id)) };
}

/** The lines of `ids`, a run of alike exchanges in a row (one label, request and outcome, such as a bucket's fill) as one line with its count. */
export function groupedEvidenceLines(ids: readonly string[], index: Map<string, Exchange>): string[] {
  const out: string[] = [];
  const key = (id: string): string | undefined => {
    const x = index.get(id);
    return x ? `${x.label ?? ''}\u0000${evidenceLine(x)}` : undefined;
  };
  for (let i = 0; i < ids.length;) {
    const k = key(ids[i]!);
    let j = i + 1;
    while (k !== undefined && j < ids.length && key(ids[j]!) === k) j++;
    if (j - i < 3) out.push(...idLines(ids.slice(i, j), index));
    else {
      const x = index.get(ids[i]!)!;
      out.push(`${ids[i]} … ${ids[j - 1]} (${j - i} alike)${x.label ? ` [${x.label}]` : ''}: ${evidenceLine(x)}`);
    }
    i = j;
  }
  return out;
}

/**
 * The evidence of a failing case as text blocks: with decisive exchanges,
 * those first under their own heading, then the others grouped
 * ({@link groupedEvidenceLines}); else every exchange in order.
 */
export function evidenceBlocks(c: CaseResult, index: Map<string, Exchange>): Array<{ title: string; lines: string[]; folded: boolean }> {
  const { decisive, others } = evidenceGroups(c);
  if (decisive.length === 0) return c.evidence.length > 0 ? [{ title: 'Evidence', lines: evidenceLines(c, index), folded: false }] : [];
  const blocks = [{ title: decisive.length === 1 ? 'Decisive exchange' : 'Decisive exchanges', lines: idLines(decisive, index), folded: false }];
  if (others.length > 0)
    blocks.push({
      title: `${others.length} other exchange${others.length === 1 ? '' : 's'} of the run (setup, fills and the rest)`,
      lines: groupedEvidenceLines(others, index),
      folded: true,
    });
  return blocks;
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
