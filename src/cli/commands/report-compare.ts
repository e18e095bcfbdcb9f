import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../../errors/harness-error.js';
import { readThresholds } from '../../load/merge/read-load-inputs.js';
import { compareJson } from '../../report/compare/compare-json.js';
import { compareRuns } from '../../report/compare/compare-runs.js';
import { readRun } from '../../report/compare/read-run.js';
import { parseRegressionLimits } from '../../load/gate/regression-limits.js';
import { renderCompareHtml } from '../../report/compare/render-compare-html.js';
import { renderCompareMarkdown } from '../../report/compare/render-compare-markdown.js';
import { renderCompareText } from '../../report/compare/render-compare-text.js';
import { exitCodeOf, type CommandOutcome } from '../exit-codes.js';

/** Arguments of `svc-harness report compare`. */
export interface ReportCompareArgs {
  base: string;
  new: string;
  out?: string;
  threshold?: string[];
  thresholds?: string;
  'max-regression'?: string[];
  json: boolean;
}

/** `svc-harness report compare BASE NEW`: what changed between two runs; exit 1 when something newly fails or regresses. */
export async function reportCompareCommand(args: ReportCompareArgs): Promise<CommandOutcome> {
  const limits = parseRegressionLimits(args['max-regression']);
  const thresholds = await readThresholds(args.threshold, args.thresholds);
  const base = await readRun(args.base);
  const now = await readRun(args.new);
  const comparison = compareRuns(base, now, { thresholds, limits });
  const dir = args.out ?? path.join('reports', 'compare');
  const files = { 'compare.html': renderCompareHtml(comparison), 'compare.md': renderCompareMarkdown(comparison) };
  const written: string[] = [];
  try {
    await mkdir(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(dir, name);
      await writeFile(file, text, 'utf8');
      written.push(file);
    }
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e?.code !== 'string') throw err;
    throw new HarnessError('E_REPORT_WRITE', `cannot write the comparison to ${dir}: ${e.code}`, { cause: err });
  }
  const outcome: CommandOutcome = { kind: 'verdict', passed: !comparison.regressed };
  if (args.json) process.stdout.write(`${JSON.stringify(compareJson(comparison, { exitCode: exitCodeOf(outcome), reportDir: dir, files: written }))}\n`);
  else process.stdout.write(`${renderCompareText(comparison)}reports: ${written.join(', ')}\n`);
  return outcome;
}
