import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { HarnessError } from '../errors/harness-error.js';
import { canonicalCaseId, harnessCaseIds, unknownIdError, type CaseIdCatalogue } from './case-ids.js';
import type { KnownIssue } from './known-issue.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function invalid(file: string, what: string): HarnessError {
  return new HarnessError('E_KNOWN_ISSUES_INVALID', `known issues ${file}: ${what}`);
}

/** A real calendar day written `YYYY-MM-DD` (a YAML date read as a Date is taken as its UTC day). */
function dayOf(value: unknown): string | undefined {
  if (value instanceof Date && Number.isFinite(value.getTime())) return value.toISOString().slice(0, 10);
  if (typeof value !== 'string') return undefined;
  const m = DATE.exec(value.trim());
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value.trim() ? value.trim() : undefined;
}

/**
 * Parses the text of a known-issues file: a YAML list of `{id, reason,
 * until}`. Every problem is one line naming the entry: a file that is not
 * YAML, an entry without a reason or a real date, an id twice, or an id no
 * case of the catalogue has.
 */
export function parseKnownIssues(text: string, file: string, catalogue: CaseIdCatalogue): KnownIssue[] {
  let doc: unknown;
  try {
    doc = parseYaml(text, { uniqueKeys: true });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    // The parser's own excerpt spans lines: the first line says where and what.
    throw new HarnessError('E_KNOWN_ISSUES_INVALID', `known issues ${file}: not valid YAML: ${msg.split('\n')[0]}`, { cause: err });
  }
  if (doc === null || doc === undefined) return [];
  if (!Array.isArray(doc)) throw invalid(file, 'expected a YAML list of entries {id, reason, until}');
  const seen = new Set<string>();
  return doc.map((entry: unknown, i) => {
    const where = `entry ${i + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalid(file, `${where} is not a mapping {id, reason, until}`);
    const { id, reason, until, ...rest } = entry as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) throw invalid(file, `${where} has unknown field(s) ${extra.join(', ')} (expected id, reason, until)`);
    if (typeof id !== 'string' || id.trim() === '') throw invalid(file, `${where} needs an id (a case id such as RL-04)`);
    if (typeof reason !== 'string' || reason.trim() === '') throw invalid(file, `${where} (${id}) needs a reason`);
    const day = dayOf(until);
    if (day === undefined) throw invalid(file, `${where} (${id}) needs until: a date YYYY-MM-DD, got ${JSON.stringify(until ?? null)}`);
    const canonical = canonicalCaseId(id.trim(), catalogue);
    if (canonical === undefined) throw unknownIdError(file, i, id.trim());
    if (seen.has(canonical)) throw invalid(file, `${where} names ${canonical} again`);
    seen.add(canonical);
    return { id: canonical, reason: reason.trim(), until: day };
  });
}

/** Reads and validates a known-issues file against the harness's case ids (and the scenario files a command names). */
export async function readKnownIssues(file: string, scenarioFiles: readonly string[] = []): Promise<KnownIssue[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new HarnessError(
      'E_FILE_UNREADABLE',
      `cannot read known issues ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (code ?? String(err))}`,
      { cause: err },
    );
  }
  return parseKnownIssues(text, file, await harnessCaseIds(scenarioFiles));
}
