import type { CaseResult } from '../results/model.js';
import { terminalSafe } from '../log/terminal-safe.js';
import { knownNote } from '../results/known-note.js';

/** The console lines of what a known-issues list did: each case it named, with its verdict, the entry's reason and date. */
export function knownIssueLines(cases: readonly CaseResult[]): string[] {
  return cases.flatMap((c) => {
    const k = c.known;
    if (k === undefined) return [];
    const line =
      k.state === 'excused'
        ? `  KNOWN ${c.id} (known issue until ${k.until}: ${k.reason}): ${c.message}`
        : k.state === 'expired'
          ? `  FAIL  ${c.id}: its known-issues entry expired on ${k.until} (${k.reason}), so it fails as usual`
          : k.state === 'intermittent'
            ? `  PASS  ${c.id} (${knownNote(c)})`
            : `  WARN  ${c.id} no longer fails: remove it from the list (${k.reason}, until ${k.until})`;
    return [terminalSafe(line)];
  });
}
