import type { CaseResult, KnownMark } from '../results/model.js';
import type { LoadRunResult, SuiteResult } from '../results/run-result.js';
import { BASELINE_CHECK } from '../checks/index.js';
import { suiteVerdict } from '../runner/run-verdict.js';
import type { KnownIssue } from './known-issue.js';
import type { KnownHistory } from './case-history.js';
import { knownNote } from '../results/known-note.js';

/** Today's UTC day, `YYYY-MM-DD`: an entry excuses through the whole of its `until` day. */
export function utcDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * One case seen through the list: a FAIL it names becomes KNOWN while the
 * entry lasts, and stays a FAIL saying so once the entry expired; a PASS it
 * names becomes a WARN asking to remove the entry, unless the earlier runs
 * of the same reports folder (`history`) show it failing there: then it
 * stays a PASS that says how often it failed, and the entry stays. Other
 * verdicts are left alone: an ERROR is the harness failing to judge, which
 * no entry excuses, and a SKIP proves nothing either way.
 */
export function judgeKnown(c: CaseResult, issues: readonly KnownIssue[], today: string, history?: KnownHistory): CaseResult {
  const issue = issues.find((i) => i.id === c.id);
  if (issue === undefined || c.known !== undefined) return c;
  const mark = (state: KnownMark['state']): KnownMark => ({ reason: issue.reason, until: issue.until, state, was: c.verdict });
  if (c.verdict === 'FAIL') {
    if (today > issue.until)
      return { ...c, message: `${c.message} (its known-issues entry expired on ${issue.until}: ${issue.reason})`, known: mark('expired') };
    return { ...c, verdict: 'KNOWN', known: mark('excused') };
  }
  const before = history?.byId.get(c.id);
  if (c.verdict === 'PASS' && before !== undefined && before.failed > 0) {
    const known: KnownMark = { ...mark('intermittent'), history: { folder: history!.folder, ...before } };
    return { ...c, message: `${c.message} (${knownNote({ known })})`, known };
  }
  if (c.verdict === 'PASS')
    return {
      ...c,
      verdict: 'WARN',
      message: `${c.id} no longer fails: remove it from the known-issues list (${issue.reason}); ${c.message}`,
      known: mark('stale'),
    };
  return c;
}

/** Wraps a run listener so cases it hears about are already seen through the list (the console shows KNOWN as they finish). */
export function knownListener<E extends { type: string }>(
  listener: (event: E) => void,
  issues: readonly KnownIssue[],
  today: string = utcDay(),
  history?: KnownHistory,
): (event: E) => void {
  if (issues.length === 0) return listener;
  return (event) => {
    if (event.type === 'case-finished' && 'result' in event) listener({ ...event, result: judgeKnown(event.result as CaseResult, issues, today, history) });
    else listener(event);
  };
}

/**
 * A suite or load result with the known-issues list applied: each case
 * judged by {@link judgeKnown}, counts and the run's verdict taken again
 * (a KNOWN case fails nothing), and a note naming what the list did. A
 * certificate never goes through here: it is never granted over a failure.
 */
export function applyKnownIssues<R extends SuiteResult | LoadRunResult>(
  result: R,
  issues: readonly KnownIssue[],
  today: string = utcDay(),
  history?: KnownHistory,
): R {
  if (issues.length === 0) return result;
  const cases = result.cases.map((c) => judgeKnown(c, issues, today, history));
  const summary: R['summary'] = { PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0, KNOWN: 0, total: cases.length };
  for (const c of cases) summary[c.verdict] = (summary[c.verdict] ?? 0) + 1;
  const by = (state: KnownMark['state']): string[] => cases.filter((c) => c.known?.state === state).map((c) => c.id);
  const ids = new Set(cases.map((c) => c.id));
  const absent = issues.filter((i) => !ids.has(i.id)).map((i) => i.id);
  const parts = [
    `${by('excused').length} failure(s) known${by('excused').length > 0 ? ` (${by('excused').join(', ')})` : ''}`,
    ...(by('expired').length > 0 ? [`${by('expired').length} entry(ies) expired and excuse nothing (${by('expired').join(', ')})`] : []),
    ...(by('stale').length > 0 ? [`${by('stale').length} no longer fail(s): remove from the list (${by('stale').join(', ')})`] : []),
    ...(by('intermittent').length > 0
      ? [`${by('intermittent').length} passed but failed in earlier runs of ${history!.folder}: keep listed (${by('intermittent').join(', ')})`]
      : []),
    ...(absent.length > 0 ? [`${absent.length} not in this run (${absent.join(', ')})`] : []),
  ];
  const note = `known issues: ${issues.length} listed; ${parts.join('; ')}`;
  const failing = cases.some((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR');
  const verdict =
    result.kind === 'suite'
      ? suiteVerdict(cases, BASELINE_CHECK)
      : {
          verdict: result.verdict === 'INTERRUPTED' ? ('INTERRUPTED' as const) : failing ? ('FAIL' as const) : ('PASS' as const),
          reason: result.verdictReason,
        };
  return { ...result, cases, summary, verdict: verdict.verdict, verdictReason: verdict.reason, notes: [...result.notes, note] };
}
