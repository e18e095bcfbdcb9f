import { HarnessError } from '../../errors/harness-error.js';
import { pruneRunFolders } from '../../report/prune-run-folders.js';
import { REPORT_FILES } from '../../report/write-reports.js';
import { SELFTEST_FILES } from '../../selftest/write-selftest-reports.js';
import type { CommandOutcome } from '../exit-codes.js';

/** Arguments of `svc-harness report prune`. */
export interface ReportPruneArgs {
  keep: number;
  'report-dir': string;
  json: boolean;
}

/** What a run folder of the harness may hold: the files of each kind of run, and a certificate. */
const RUN_FOLDER_ENTRIES = [...Object.keys(REPORT_FILES), ...Object.keys(SELFTEST_FILES), 'certificate'];

/** `svc-harness report prune --keep N`: removes the harness's run folders beyond the N newest. */
export async function reportPruneCommand(args: ReportPruneArgs): Promise<CommandOutcome> {
  let outcome;
  try {
    outcome = await pruneRunFolders(args['report-dir'], args.keep, RUN_FOLDER_ENTRIES);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e?.code !== 'string') throw err;
    throw new HarnessError('E_USAGE', `cannot prune ${args['report-dir']}: ${e.code}`, { cause: err });
  }
  if (args.json) process.stdout.write(`${JSON.stringify({ report_dir: args['report-dir'], removed: outcome.removed, kept: outcome.kept, left_alone: outcome.foreign })}\n`);
  else {
    process.stdout.write(`removed ${outcome.removed.length} run folder(s) from ${args['report-dir']}, kept ${outcome.kept.length}${outcome.foreign.length > 0 ? `; left alone ${outcome.foreign.length} entr${outcome.foreign.length > 1 ? 'ies' : 'y'} the harness did not write (${outcome.foreign.slice(0, 5).join(', ')}${outcome.foreign.length > 5 ? ', …' : ''})` : ''}\n`);
  }
  return { kind: 'done' };
}
