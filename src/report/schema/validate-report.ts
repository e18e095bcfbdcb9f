import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { HarnessError } from '../../errors/harness-error.js';
import { assertPlainTree, describeSchemaError } from '../../files/json-fields.js';
import { checkSchemaValidLoadResult } from '../../load/merge/validate-load-part.js';
import type { RunResult } from '../../results/run-result.js';
import { REPORT_SCHEMAS } from './report-schemas.js';

type ReportVersion = keyof typeof REPORT_SCHEMAS;

/** Deepest nesting accepted: a report is about ten levels deep, a case's details a few more. */
const MAX_DEPTH = 48;
/** JSON.parse keeps a `__proto__` key as an own property; one copied into a plain object would set its prototype. The harness never writes one. */
const FORBIDDEN_KEYS = new Set(['__proto__']);
/** A version this harness could have written, safe to name in a message (anything else is the file's content, never quoted). */
const VERSION_SHAPE = /^svc-harness\/[a-z-]{1,40}@\d{1,4}$/;

const ajv = new Ajv2020({ strict: false, allErrors: false });
const compiled = new Map<ReportVersion, ValidateFunction>();
function validator(version: ReportVersion): ValidateFunction {
  let v = compiled.get(version);
  if (!v) compiled.set(version, (v = ajv.compile(REPORT_SCHEMAS[version])));
  return v;
}

/** Options of {@link validateRunReport}. */
interface ValidateOptions {
  /**
   * Whether a load's histograms are decoded and checked against its counts,
   * as `report merge` checks them (`report compare` reads them); the trend,
   * which charts figures only, skips them. @defaultValue true
   */
  histograms?: boolean;
}

/**
 * Validates a run report read from `file` (a `report.json` or a
 * `selftest.json`) against the schema of the version it declares: no
 * `__proto__` key, the schema's types and bounds, and for a load the load
 * result `report merge` would accept. Throws an E_FILE_UNREADABLE naming the
 * file and the first field that breaks it, never quoting its content.
 */
export function validateRunReport(doc: unknown, file: string, options: ValidateOptions = {}): RunResult {
  const version = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as { schema?: unknown }).schema : undefined;
  if (typeof version !== 'string' || !Object.hasOwn(REPORT_SCHEMAS, version)) {
    const known = Object.keys(REPORT_SCHEMAS).join(', ');
    const said = typeof version === 'string' && VERSION_SHAPE.test(version) ? `its schema is ${version}, ` : '';
    throw new HarnessError(
      'E_FILE_UNREADABLE',
      `${file} is not a run report of the harness that this version reads (${said}expected a report.json or selftest.json declaring schema ${known})`,
    );
  }
  const fail = (why: string): HarnessError => new HarnessError('E_FILE_UNREADABLE', `${file} is not a valid ${version} report: ${why}`);
  try {
    assertPlainTree(doc, FORBIDDEN_KEYS, MAX_DEPTH);
  } catch (err) {
    throw fail((err as Error).message);
  }
  const validate = validator(version as ReportVersion);
  if (!validate(doc)) throw fail(describeSchemaError(validate.errors![0]!, '(the whole report)'));
  const run = doc as RunResult;
  if (run.kind === 'load' && options.histograms !== false) {
    try {
      // The run schema holds the load result's schema, which `validate` has just checked `run.load` against.
      checkSchemaValidLoadResult(run.load, 'its load');
    } catch (err) {
      throw fail((err as Error).message.replace(/^its load is not a valid load result: /, 'load.'));
    }
  }
  return run;
}
