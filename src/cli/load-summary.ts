import { terminalSafe } from '../log/terminal-safe.js';
import { breakdownText, gateBreakdown } from '../results/error-breakdown.js';
import { gateSentence } from '../results/gate-units.js';
import type { CaseResult } from '../results/model.js';
import type { LoadRunResult } from '../results/run-result.js';
import { exitCodeOf, type CommandOutcome } from './exit-codes.js';
import { knownIssueLines } from './known-issue-lines.js';
import { LATENCY_OUTCOMES, type LoadResult, type OperationFigures } from '../results/load-result.js';
import { formatDecimal, groupThousands } from '../results/units.js';
import { netChangeByCurrency, walletFigures, type WalletFigures } from '../results/wallet-figures.js';

/*
 * The end-of-load summary on the console, k6 style: the headline, the
 * latency of each outcome apart (a run pushed past its limits is mostly fast
 * 429s, which would hide the 2xx latency), then each gate with ✓ or ✗ in the
 * unit of its metric.
 */

const PERCENTILES = ['p50', 'p95', 'p99', 'max'] as const;

/** The latency table by outcome of one operation (`all`: every operation together); empty when the result predates the split. */
function outcomeLatencyLines(op: OperationFigures | undefined): string[] {
  const split = op?.latencyByOutcome;
  if (!split) return [];
  const rows = LATENCY_OUTCOMES.filter((o) => split[o].latency.count > 0).map((o) => [
    o,
    formatDecimal(split[o].latency.count, 0),
    ...PERCENTILES.map((k) => groupThousands(split[o].latency[k].toFixed(2))),
  ]);
  if (rows.length === 0) return [];
  const head = ['latency (ms)', 'answers', ...PERCENTILES];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`;
  return [line(head), ...rows.map(line)];
}

/** One line per gate: `✓ search.p95<200ms: search.p95 measured 11.3 ms, bound < 200 ms`. */
function gateLines(load: LoadResult): string[] {
  return load.gates.flatMap((g) => {
    const behind = g.passed ? undefined : gateBreakdown(load, g);
    return [`  ${g.passed ? '✓' : '✗'} ${g.source}: ${gateSentence(g)}`, ...(behind ? [`      ${terminalSafe(behind)}`] : [])];
  });
}

/** One line for the wallets: how many reconcile, and how their balances moved, in their currencies. */
function walletLine(load: LoadResult): string | undefined {
  const verdicts = load.verdicts.filter((v) => v.kind === 'wallet');
  if (verdicts.length === 0) return undefined;
  const passed = verdicts.filter((v) => v.verdict === 'PASS').length;
  const figures = verdicts.map(walletFigures).filter((w): w is WalletFigures => w !== undefined);
  return `wallets: ${passed} of ${verdicts.length} reconcile${figures.length > 0 ? `; balances moved ${netChangeByCurrency(figures)} in all` : ''}`;
}

/**
 * The count line of a load's cases: its verdicts under load and its gates
 * apart, since a breached gate is a slow target (exit 99), not a broken
 * verdict (exit 1). KNOWN counts show only when a known-issues list named some.
 */
export function caseCountsLine(cases: readonly CaseResult[]): string {
  const verdicts = cases.filter((c) => c.kind !== 'gate');
  const gates = cases.filter((c) => c.kind === 'gate');
  const n = (list: readonly CaseResult[], v: CaseResult['verdict']): number => list.filter((c) => c.verdict === v).length;
  const known = (list: readonly CaseResult[]): string => (n(list, 'KNOWN') > 0 ? `, ${n(list, 'KNOWN')} known` : '');
  const line = `verdicts: ${n(verdicts, 'PASS')} pass, ${n(verdicts, 'FAIL')} fail, ${n(verdicts, 'WARN')} warn, ${n(verdicts, 'SKIP')} skip, ${n(verdicts, 'ERROR')} error${known(verdicts)}`;
  return gates.length === 0 ? line : `${line}; gates: ${n(gates, 'PASS')} held, ${n(gates, 'FAIL') + n(gates, 'ERROR')} breached${known(gates)}`;
}

/** The summary lines of a load result: headline, latency by outcome, wallets, gates. */
export function loadSummaryLines(load: LoadResult): string[] {
  const all = load.operations.all;
  const errorsBy = breakdownText(all?.errorsBy);
  const expectedBy = breakdownText(all?.expectedBy);
  const lines = [
    `load: ${formatDecimal(load.totals.requests, 0)} requests in ${load.durationS.toFixed(1)} s (${formatDecimal(load.rps, 0)} rps), 429 ${(load.rateLimitedRate * 100).toFixed(1)}%, errors ${(load.errorRate * 100).toFixed(2)}%${errorsBy ? ` (${errorsBy})` : ''}${load.totals.expected ? ` (and ${load.totals.expected} refusals provoked on purpose${expectedBy ? `: ${expectedBy}` : ''})` : ''}${load.totals.cutOff ? `, ${formatDecimal(load.totals.cutOff, 0)} cut off at the stop (not errors)` : ''}` +
      (all ? `, latency p50 ${groupThousands(all.latency.p50.toFixed(2))} ms p99 ${groupThousands(all.latency.p99.toFixed(2))} ms` : ''),
    ...outcomeLatencyLines(all),
  ];
  const wallets = walletLine(load);
  if (wallets) lines.push(wallets);
  if (load.gates.length > 0) lines.push('gates:', ...gateLines(load));
  return lines;
}

/**
 * What a load (or a merge of loads) prints on stdout once it is done: the
 * summary, the count of verdicts, every failed verdict by name (the gates
 * are named in the summary with their ✓ or ✗), and a last line whose mark
 * agrees with the exit status.
 */
export function loadResultLines(result: LoadRunResult, outcome: CommandOutcome, reportDir: string): string[] {
  const lines = [...loadSummaryLines(result.load), caseCountsLine(result.cases), ...knownIssueLines(result.cases)];
  const failed = (c: CaseResult): boolean => c.verdict === 'FAIL' || c.verdict === 'ERROR';
  // A verdict's message may quote the target: nothing it sent may drive the terminal. Gates are listed above.
  for (const c of result.cases) if (c.kind !== 'gate' && failed(c)) lines.push(`  ${c.verdict} ${c.id}: ${terminalSafe(c.message)}`);
  const code = exitCodeOf(outcome);
  const failedGates = result.cases.filter((c) => c.kind === 'gate' && failed(c)).length;
  const failedVerdicts = result.cases.filter((c) => c.kind !== 'gate' && failed(c)).length;
  const why = [failedVerdicts > 0 ? `${failedVerdicts} verdict(s) failed` : '', failedGates > 0 ? `${failedGates} gate(s) failed` : '']
    .filter(Boolean)
    .join(', ');
  lines.push(
    outcome.kind === 'interrupted'
      ? `✗ INTERRUPTED (exit ${code})`
      : code === 0
        ? `✓ ${result.verdict} (exit 0)`
        : `✗ ${result.verdict}${why ? `: ${why}` : ''} (exit ${code})`,
  );
  lines.push(`reports: ${reportDir}`);
  return lines;
}
