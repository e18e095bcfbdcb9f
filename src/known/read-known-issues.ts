import { parse as parseYaml } from 'yaml';
import { HarnessError } from '../errors/harness-error.js';
import { nestsDeeperThan } from '../files/nesting-depth.js';
import { readRegularFile } from '../files/read-regular-file.js';
import { canonicalCaseId, harnessCaseIds, unknownIdError, type CaseIdCatalogue } from './case-ids.js';
import type { KnownIssue } from './known-issue.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Largest known-issues file read: a list of every case of the catalogue, each with a long reason, is a few hundred KB. */
const MAX_KNOWN_ISSUES_BYTES = 1024 * 1024;
/** Most entries a list may hold: the catalogue has a few hundred cases. */
const MAX_ENTRIES = 5000;
/** Deepest nesting of a list of flat entries. */
const MAX_DEPTH = 8;

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
  // Lines and flow commas bound the items a YAML text holds; counted before parsing, which costs a kilobyte or more per item.
  let items = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x2c) items++;
  if (items > MAX_ENTRIES * 8)
    throw invalid(file, `it holds more than ${MAX_ENTRIES * 8} lines and items, more than a list of the ${MAX_ENTRIES} entries accepted needs`);
  if (nestsDeeperThan(text, MAX_DEPTH)) throw invalid(file, `it nests deeper than ${MAX_DEPTH} levels (a list of entries {id, reason, until} nests two)`);
  let doc: unknown;
  try {
    doc = parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    // The parser's own excerpt spans lines: the first line says where and what.
    throw new HarnessError('E_KNOWN_ISSUES_INVALID', `known issues ${file}: not valid YAML: ${msg.split('\n')[0]}`, { cause: err });
  }
  if (doc === null || doc === undefined) return [];
  if (!Array.isArray(doc)) throw invalid(file, 'expected a YAML list of entries {id, reason, until}');
  if (doc.length > MAX_ENTRIES) throw invalid(file, `it holds ${doc.length} entries, more than the ${MAX_ENTRIES} accepted`);
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
  // A regular file under a cap: a FIFO is refused, not waited on; /dev/zero or a 60 MB file is refused, not read whole.
  const text = (await readRegularFile(file, { maxBytes: MAX_KNOWN_ISSUES_BYTES, what: 'known issues' })).toString('utf8');
  return parseKnownIssues(text, file, await harnessCaseIds(scenarioFiles));
}
