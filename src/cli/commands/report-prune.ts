import { CERTIFICATE_FILES } from '../../certify/certificate/types.js';
import { HarnessError } from '../../errors/harness-error.js';
import { pruneRunFolders, type LegacyRunLayout } from '../../report/prune-run-folders.js';
import { REPORT_FILES } from '../../report/write-reports.js';
import { SELFTEST_FILES } from '../../selftest/write-selftest-reports.js';
import type { CommandOutcome } from '../exit-codes.js';

/** Arguments of `svc-harness report prune`. */
export interface ReportPruneArgs {
  keep: number;
  'report-dir': string;
  json: boolean;
}

/** What the harness writes in a run folder, by name: for folders from before manifests. */
const LEGACY_LAYOUT: LegacyRunLayout = {
  topFiles: [...Object.keys(REPORT_FILES), ...Object.keys(SELFTEST_FILES)],
  certificate: {
    dir: 'certificate',
    files: [CERTIFICATE_FILES.json, CERTIFICATE_FILES.html, CERTIFICATE_FILES.signature, CERTIFICATE_FILES.publicKey],
    listing: CERTIFICATE_FILES.json,
    evidenceDir: CERTIFICATE_FILES.evidenceDir,
  },
};

function list(items: readonly string[], max = 5): string {
  return `${items.slice(0, max).join(', ')}${items.length > max ? `, … ${items.length - max} more` : ''}`;
}

/** `svc-harness report prune --keep N`: removes what the harness wrote in the run folders beyond the N newest. */
export async function reportPruneCommand(args: ReportPruneArgs): Promise<CommandOutcome> {
  let outcome;
  try {
    outcome = await pruneRunFolders(args['report-dir'], args.keep, LEGACY_LAYOUT);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e?.code !== 'string') throw err;
    throw new HarnessError('E_USAGE', `cannot prune ${args['report-dir']}: ${e.code}`, { cause: err });
  }
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({ report_dir: args['report-dir'], removed: outcome.removed, kept: outcome.kept, left_holding: outcome.left.map((l) => ({ folder: l.folder, files: l.files })), left_alone: outcome.foreign })}\n`,
    );
    return { kind: 'done' };
  }
  const lines = [`removed ${outcome.removed.length} run folder(s) from ${args['report-dir']}, kept ${outcome.kept.length}`];
  for (const l of outcome.left)
    lines.push(
      `left ${l.folder}: it holds files the harness did not write, or changed since it wrote them (${list(l.files)}); the harness's own files in it are removed`,
    );
  if (outcome.foreign.length > 0)
    lines.push(`left alone ${outcome.foreign.length} entr${outcome.foreign.length > 1 ? 'ies' : 'y'} the harness did not write (${list(outcome.foreign)})`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return { kind: 'done' };
}
