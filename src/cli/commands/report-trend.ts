import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HarnessError } from '../../errors/harness-error.js';
import { collectTrendPoints } from '../../report/trend/collect-runs.js';
import { renderTrendHtml } from '../../report/trend/render-trend-html.js';
import type { CommandOutcome } from '../exit-codes.js';

/** Arguments of `svc-harness report trend`. */
export interface ReportTrendArgs {
  dirs: string[];
  last?: number;
  out?: string;
  json: boolean;
}

/** `svc-harness report trend DIR…`: one page of charts over runs in time order. */
export async function reportTrendCommand(args: ReportTrendArgs): Promise<CommandOutcome> {
  const points = await collectTrendPoints(args.dirs, args.last);
  const dir = args.out ?? 'reports';
  const file = path.join(dir, 'trend.html');
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(file, renderTrendHtml(points), 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e?.code !== 'string') throw err;
    throw new HarnessError('E_REPORT_WRITE', `cannot write ${file}: ${e.code}`, { cause: err });
  }
  if (args.json)
    process.stdout.write(
      `${JSON.stringify({ file, runs: points.map((p) => ({ run_id: p.runId, kind: p.kind, started_at: p.startedAt, verdict: p.verdict, duration_s: p.durationS })) })}\n`,
    );
  else process.stdout.write(`trend over ${points.length} run(s), ${points[0]?.startedAt ?? ''} to ${points.at(-1)?.startedAt ?? ''}: ${file}\n`);
  return { kind: 'done' };
}
