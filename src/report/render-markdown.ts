import { durationText } from '../log/duration-text.js';
import type { CaseResult, Verdict } from '../results/model.js';
import type { CaseRunResult } from '../results/run-result.js';
import { mdCell, mdCode, mdFence, mdInline } from './escape.js';
import { evidenceBlocks, exchangeIndex, replayOf } from './_internal/evidence.js';
import { generatedInputs } from './_internal/generated-inputs.js';
import { groupByArea, isFailing, urgentFirst, VERDICT_ORDER } from './_internal/order.js';
import { loadTables } from './_internal/load-table.js';
import { knownNote, namesKnownIssues } from '../results/known-note.js';
import { isPracticeRun, seedWords } from './_internal/run-words.js';

const VERDICT_WORDS: Record<Verdict, [string, string]> = {
  PASS: ['passed', 'passed'],
  FAIL: ['failed', 'failed'],
  ERROR: ['error', 'errors'],
  WARN: ['warning', 'warnings'],
  SKIP: ['skipped', 'skipped'],
  KNOWN: ['known', 'known'],
};

/**
 * Renders `summary.md`: verdict line, counts, failures first with their
 * evidence and replay commands, then every case in a table per area, and
 * load figures when the run carries them.
 */
export function renderMarkdown(result: CaseRunResult): string {
  const index = exchangeIndex(result);
  const out: string[] = [];
  const icon = result.verdict === 'PASS' ? '✅' : result.verdict === 'INCONCLUSIVE' ? '⚠️' : result.verdict === 'INTERRUPTED' ? '⏹️' : '❌';
  const practice = isPracticeRun(result) ? 'PRACTICE ' : '';
  out.push(`# ${icon} ${practice}${result.verdict}: svc-harness run ${mdInline(result.runId)}`, '');
  if (practice !== '') out.push('A practice certification against the mock bundled with the harness: it certifies nothing about any service.', '');
  out.push(`**${result.verdict}**: ${countsLine(result)} of ${result.summary.total} cases.`, '');
  if (result.verdictReason !== undefined) out.push(`Why: ${mdInline(result.verdictReason)}`, '');
  out.push(
    `- Target: ${mdInline(result.target.name)} ${mdCode(result.target.baseUrl)}${result.target.embedded ? ' (embedded mock)' : ''}, clock: ${clockWords(result)}`,
    `- Command: ${mdCode(result.command)}`,
    `- Seed: ${seedLine(result)}`,
    `- Started: ${mdInline(result.startedAt)}, took ${durationText(result.durationMs, { tenths: true })}`,
    `- Tool: ${mdInline(`${result.tool.name} ${result.tool.version}`)}, Node ${mdInline(result.tool.node)}`,
    '',
  );

  if (result.notes.length > 0) {
    out.push('## Notes', '', ...result.notes.map((n) => `- ${mdInline(n)}`), '');
  }

  const failing = urgentFirst(result.cases).filter((c) => isFailing(c.verdict));
  if (failing.length > 0) {
    out.push('## Failures', '');
    for (const c of failing) out.push(...failureBlock(c, index));
  }

  const known = urgentFirst(result.cases).filter((c) => c.known !== undefined);
  if (known.length > 0) {
    out.push('## Known issues', '', '| Id | Verdict | Known issue | Message |', '|---|---|---|---|');
    for (const c of known)
      out.push(`| ${mdCode(c.id).replace(/\|/g, '\\|')} | ${verdictCell(c.verdict)} | ${mdCell(knownNote(c) ?? '')} | ${mdCell(c.message)} |`);
    out.push('');
  }

  const replays = result.cases.filter((c) => c.kind === 'property' && replayOf(c) !== undefined && c.verdict !== 'PASS');
  if (replays.length > 0) {
    out.push('## Replay failed properties', '', `Seed of the run: ${mdCode(String(result.seed))}`, '');
    for (const c of replays) out.push(`- ${mdCode(c.id)}: ${mdCode(replayOf(c) ?? '')}`);
    out.push('');
  }

  out.push('## Results by area', '');
  for (const g of groupByArea(result.cases)) {
    const counts = VERDICT_ORDER.filter((v) => g.counts[v] > 0)
      .map((v) => `${g.counts[v]} ${v}`)
      .join(', ');
    out.push(`### ${mdInline(g.area)} (${counts})`, '');
    out.push('| Id | Title | Clause | Verdict | Message |', '|---|---|---|---|---|');
    for (const c of urgentFirst(g.cases)) {
      out.push(`| ${mdCode(c.id).replace(/\|/g, '\\|')} | ${mdCell(c.title)} | ${mdCell(c.clause)} | ${verdictCell(c.verdict)} | ${mdCell(c.message)} |`);
    }
    out.push('');
  }

  for (const c of result.cases) {
    const inputs = generatedInputs(c);
    if (!inputs) continue;
    out.push(
      `## Generated inputs of ${mdCode(c.id)} (seed ${mdCode(String(inputs.seed))})`,
      '',
      '| Operation | Keywords broken | Valid | Invalid |',
      '|---|---|---:|---:|',
    );
    for (const r of inputs.rows) out.push(`| ${mdCell(r.operation)} | ${mdCell(r.keywords.join(', ') || '–')} | ${r.valid} | ${r.invalid} |`);
    out.push('');
  }

  if (result.kind === 'load') {
    out.push('## Load', '');
    const tables = loadTables(result.load);
    out.push(...tables.scalars.map(([k, v]) => `- ${mdInline(k)}: ${mdInline(v)}`), '');
    const { columns, rows } = tables.operations;
    if (rows.length > 0) {
      out.push(`| ${['Operation', ...columns].map(mdCell).join(' | ')} |`, `|${['---', ...columns.map(() => '---:')].join('|')}|`);
      for (const r of rows) out.push(`| ${[r.name, ...columns.map((col) => r.values[col] ?? '')].map(mdCell).join(' | ')} |`);
      out.push('');
    }
  }

  return `${out.join('\n').trimEnd()}\n`;
}

/** The clock the run's cases ran in, as the HTML banner says it: a load runs in real time whatever the target's clock control. */
function seedLine(result: CaseRunResult): string {
  const { seed, why } = seedWords(result);
  return why === undefined ? mdCode(seed) : `none (${why})`;
}

function clockWords(result: CaseRunResult): string {
  if (result.kind === 'load') return result.load.clock.replace('-', ' ');
  return result.target.clock === 'none' ? 'real time (none moved)' : "mock-admin (the mock's clock, moved through its admin API)";
}

function countsLine(result: CaseRunResult): string {
  // KNOWN is counted only in runs with a known-issues list.
  return VERDICT_ORDER.filter((v) => v !== 'KNOWN' || namesKnownIssues(result))
    .map((v) => {
      const count = result.summary[v] ?? 0;
      return `${count} ${VERDICT_WORDS[v][count === 1 ? 0 : 1]}`;
    })
    .join(', ');
}

function verdictCell(v: Verdict): string {
  return v === 'PASS' ? 'PASS' : `**${v}**`;
}

function failureBlock(c: CaseResult, index: ReturnType<typeof exchangeIndex>): string[] {
  const out = [`### ${c.verdict} ${mdCode(c.id)} ${mdInline(c.title)}`, ''];
  out.push(`- Clause: ${mdInline(c.clause)}`, `- Why: ${mdInline(c.message)}`);
  const replay = replayOf(c);
  if (replay) out.push(`- Replay: ${mdCode(replay)}`);
  out.push('');
  // The decisive exchanges first; the setup and fill requests after them, folded.
  for (const b of evidenceBlocks(c, index)) {
    const fence = mdFence(b.lines.join('\n'), 'text');
    if (b.folded) out.push(`<details><summary>${mdInline(b.title)}</summary>`, '', fence, '', '</details>', '');
    else out.push(`${b.title}:`, '', fence, '');
  }
  return out;
}
