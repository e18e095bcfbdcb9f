import type { CaseResult } from './model.js';

/** True when a known-issues list named a case of the run: only then do reports show the KNOWN count, tile and filter. */
export function namesKnownIssues(result: { cases: readonly Pick<CaseResult, 'known'>[] }): boolean {
  return result.cases.some((c) => c.known !== undefined);
}

/**
 * What the known-issues list says of a case, in one phrase every report
 * and the console share; undefined when the list does not name it.
 */
export function knownNote(c: Pick<CaseResult, 'known'>): string | undefined {
  const k = c.known;
  if (k === undefined) return undefined;
  switch (k.state) {
    case 'excused':
      return `known issue until ${k.until}: ${k.reason}`;
    case 'expired':
      return `known-issues entry expired on ${k.until}: ${k.reason}`;
    case 'stale':
      return `listed as a known issue until ${k.until} (${k.reason}) but no longer fails`;
    case 'intermittent': {
      const h = k.history;
      const before = h ? `failed in ${h.failed} of the ${h.ran} earlier run(s) of ${h.folder} that ran it` : 'failed in earlier runs';
      return `known issue until ${k.until} (${k.reason}): passed this run but ${before}, so keep its entry`;
    }
  }
}
